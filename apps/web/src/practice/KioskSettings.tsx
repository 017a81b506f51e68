import { type FormEvent, useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { crown, messageOf } from "../api/crown.ts";
import type { Api, ResultsOf } from "../api/wire.ts";
import { moment, time } from "../i18n/dates.ts";
import { selectedBaby, useSession } from "../session/store.ts";
import { Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { ListTable } from "../ui/ListTable.tsx";
import { toast } from "../ui/toasts.tsx";
import { QrCode } from "../ui/QrCode.tsx";
import { RevokeDeviceDialog, useRevocationReasonName } from "../ui/RevokeDeviceDialog.tsx";
import type { RevocationReason } from "@crown/core/kiosk/revocation";

/**
 * /kiosk-settings: the portal side of the exam-room kiosk (issue 8). Physicians and staff set their own kiosk
 * PIN; physicians enrol tablets (a one-time pairing code) and revoke them; parents show a short-lived
 * code for their baby at the clinic.
 */

type Device = ResultsOf<Api["kiosk"]["devices"]["list"]["$post"]>[number];

function PinForm() {
  const { t } = useTranslation("practice");
  const [pin, setPin] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{4,8}$/.test(pin)) return setError(t("kiosk.pin.invalid"));
    setError(undefined);
    setPending(true);
    try {
      await crown.call((api) => api.user["kiosk-pin"].$post({ json: { pin } }));
      setPin("");
      toast(t("kiosk.pin.saved"), "success");
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setPending(false);
    }
  };
  return (
    <section className="panel narrow-panel" aria-labelledby="kiosk-pin-title">
      <h2 id="kiosk-pin-title">{t("kiosk.pin.title")}</h2>
      <p className="card-subtitle">{t("kiosk.pin.subtitle")}</p>
      <Form className="form narrow-form" onSubmit={submit} validationBehavior="aria">
        <Field name="pin" label={t("kiosk.pin.label")} type="password" inputMode="numeric" maxLength={8} value={pin} onChange={setPin} error={error} autoComplete="off" />
        <SubmitButton isPending={pending}>{t("kiosk.pin.save")}</SubmitButton>
      </Form>
    </section>
  );
}

function Devices() {
  const { t } = useTranslation("practice");
  const reasonName = useRevocationReasonName();
  const [revoking, setRevoking] = useState<Device | null>(null);
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [name, setName] = useState("");
  const [code, setCode] = useState<{ name: string; code: string; expires: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    crown.call((api) => api.kiosk.devices.list.$post({ json: {} }))
      .then((r) => setDevices(r.results))
      .catch((e) => {
        // A failed read ends the spinner too: the error above an empty list.
        setDevices((shown) => shown ?? []);
        setError(messageOf(e));
      });
  useEffect(() => {
    void load();
  }, []);
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await crown.call((api) => api.kiosk.devices.$post({ json: { name: name.trim() } }));
      setCode({ name: r.results.name, code: r.results.pairing_code, expires: r.results.pairing_expires_at });
      setName("");
      void load();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const revoke = async (device: Device, reason: RevocationReason) => {
    setRevoking(null);
    try {
      await crown.call((api) => api.kiosk.devices.revoke.$post({ json: { device_identifier: device.identifier, reason } }));
      toast(t("kiosk.devices.revoked", { name: device.name }), "success");
      void load();
    } catch (err) {
      toast(messageOf(err), "error");
    }
  };
  return (
    <section className="panel" aria-labelledby="kiosk-devices-title">
      <h2 id="kiosk-devices-title">{t("kiosk.devices.title")}</h2>
      <p className="card-subtitle">{t("kiosk.devices.open", { url: `${window.location.origin}/kiosk/` })}</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {code ? (
        <FormMessage tone="success">
          {t("kiosk.devices.codeFor", { name: code.name })} <strong className="pairing-code">{code.code.replace(/(.{4})/, "$1 ")}</strong> {t("kiosk.devices.validUntil", { time: time(code.expires) })}
        </FormMessage>
      ) : null}
      <Form className="form narrow-form" onSubmit={create} validationBehavior="aria">
        <Field name="device-name" label={t("kiosk.devices.name")} value={name} onChange={setName} maxLength={60} placeholder={t("kiosk.devices.namePlaceholder")} />
        <SubmitButton>{t("kiosk.devices.enrol")}</SubmitButton>
      </Form>
      <ListTable
        rows={devices}
        empty={t("kiosk.devices.none")}
        emptyInTable
        rowKey={(d) => d.identifier}
        columns={[
          { header: t("kiosk.devices.columns.name"), cell: (d) => d.name },
          { header: t("kiosk.devices.columns.status"), cell: (d) => t(`kiosk.devices.status.${d.status}`, { defaultValue: d.status }) },
          { header: t("kiosk.devices.columns.lastSeen"), cell: (d) => (d.last_seen_at ? moment(d.last_seen_at) : "—") },
          { header: t("kiosk.devices.columns.reason"), cell: (d) => reasonName(d.revocation_reason) },
          {
            header: t("kiosk.devices.columns.action"),
            className: "cell-actions",
            cell: (d) =>
              d.status === "revoked" ? null : (
                <Button className="btn btn-sm btn-secondary" onPress={() => setRevoking(d)} aria-label={t("kiosk.devices.revokeLabel", { name: d.name })}>
                  {t("kiosk.devices.revoke")}
                </Button>
              ),
          },
        ]}
      />
      <RevokeDeviceDialog device={revoking?.name ?? null} onCancel={() => setRevoking(null)} onRevoke={(reason) => revoking && void revoke(revoking, reason)} />
    </section>
  );
}

function BabyCode() {
  const { t } = useTranslation("practice");
  const session = useSession();
  const baby = selectedBaby(session);
  const [code, setCode] = useState<{ code: string; expires_at: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const expired = code !== null && new Date(code.expires_at).getTime() <= now;
  // The code is short-lived: once it expires the QR is taken down rather than left to fail at the kiosk.
  useEffect(() => {
    if (!code) return;
    const timer = window.setInterval(() => setNow(Date.now()), 15_000);
    return () => window.clearInterval(timer);
  }, [code]);
  if (!baby) return <p>{t("kiosk.baby.registerFirst")}</p>;
  const show = async () => {
    setError(null);
    try {
      setCode((await crown.call((api) => api.user["baby-qr"].$get({ query: { baby_identifier: baby.identifier } }))).results);
      setNow(Date.now());
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <section className="panel narrow-panel" aria-labelledby="baby-code-title">
      <h2 id="baby-code-title">{t("kiosk.baby.title")}</h2>
      <p className="card-subtitle">{t("kiosk.baby.subtitle", { name: baby.name })}</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {code && !expired ? (
        <div className="baby-code" data-testid="baby-code">
          <QrCode testId="baby-qr" text={code.code} label={t("kiosk.baby.qrLabel", { name: baby.name, time: time(code.expires_at) })} />
          <p>
            {t("kiosk.baby.typeIt")}
            <br />
            <code className="typed-code">{code.code}</code>
          </p>
          <p>{t("kiosk.baby.validUntil", { time: time(code.expires_at) })}</p>
        </div>
      ) : null}
      {expired ? <FormMessage tone="error">{t("kiosk.baby.expired")}</FormMessage> : null}
      <Button className="btn btn-primary" onPress={() => void show()}>
        {code ? t("kiosk.baby.showNew") : t("kiosk.baby.show")}
      </Button>
    </section>
  );
}

export default function KioskSettings() {
  const { t } = useTranslation("practice");
  const session = useSession();
  const role = session?.userRole;
  return (
    <div className="page page-stack">
      <h1 id="page-title">{t("kiosk.title")}</h1>
      {role === "physician" || role === "physician_staff" ? <PinForm /> : null}
      {role === "physician" ? <Devices /> : null}
      {role === "parent" ? <BabyCode /> : null}
    </div>
  );
}
