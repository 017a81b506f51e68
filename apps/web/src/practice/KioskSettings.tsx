import QRCode from "qrcode";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { Button, Form } from "react-aria-components";
import { messageOf, request } from "../api/client.ts";
import { selectedBaby, useSession } from "../session/store.ts";
import { Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { toast } from "../ui/toasts.tsx";

/**
 * /kiosk-settings: the portal side of the exam-room kiosk (issue 8). Physicians and staff set their own kiosk
 * PIN; physicians enrol tablets (a one-time pairing code) and revoke them; parents show a short-lived
 * code for their baby at the clinic.
 */

interface Device {
  readonly identifier: string;
  readonly name: string;
  readonly status: "pairing" | "expired" | "paired" | "revoked";
  readonly created_at: string;
  readonly last_seen_at: string | null;
}

function PinForm() {
  const [pin, setPin] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{4,8}$/.test(pin)) return setError("The PIN must be 4 to 8 digits.");
    setError(undefined);
    setPending(true);
    try {
      await request("POST", "/user/kiosk-pin", { json: { pin } });
      setPin("");
      toast("Kiosk PIN saved", "success");
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setPending(false);
    }
  };
  return (
    <section className="panel narrow-panel" aria-labelledby="kiosk-pin-title">
      <h2 id="kiosk-pin-title">My kiosk PIN</h2>
      <p className="card-subtitle">You sign in on the clinic's kiosk tablets with this PIN. Five wrong PINs lock it for 15 minutes.</p>
      <Form className="form narrow-form" onSubmit={submit} validationBehavior="aria">
        <Field name="pin" label="New PIN (4 to 8 digits)" type="password" inputMode="numeric" maxLength={8} value={pin} onChange={setPin} error={error} autoComplete="off" />
        <SubmitButton isPending={pending}>Save PIN</SubmitButton>
      </Form>
    </section>
  );
}

function Devices() {
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [name, setName] = useState("");
  const [code, setCode] = useState<{ name: string; code: string; expires: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    request<Device[]>("POST", "/kiosk/devices/list", { json: {} })
      .then((r) => setDevices(r.results))
      .catch((e) => setError(messageOf(e)));
  useEffect(() => {
    void load();
  }, []);
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await request<{ name: string; pairing_code: string; pairing_expires_at: string }>("POST", "/kiosk/devices", { json: { name: name.trim() } });
      setCode({ name: r.results.name, code: r.results.pairing_code, expires: r.results.pairing_expires_at });
      setName("");
      void load();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const revoke = async (device: Device) => {
    try {
      await request("POST", "/kiosk/devices/revoke", { json: { device_identifier: device.identifier } });
      toast(`${device.name} revoked`, "success");
      void load();
    } catch (err) {
      toast(messageOf(err), "error");
    }
  };
  return (
    <section className="panel" aria-labelledby="kiosk-devices-title">
      <h2 id="kiosk-devices-title">Kiosk tablets</h2>
      <p className="card-subtitle">Open {`${window.location.origin}/kiosk/`} on the exam-room tablet and enter the pairing code there.</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {code ? (
        <FormMessage tone="success">
          Pairing code for {code.name}: <strong className="pairing-code">{code.code.replace(/(.{4})/, "$1 ")}</strong> (valid until {new Date(code.expires).toLocaleTimeString()})
        </FormMessage>
      ) : null}
      <Form className="form narrow-form" onSubmit={create} validationBehavior="aria">
        <Field name="device-name" label="Tablet name" value={name} onChange={setName} maxLength={60} placeholder="Exam room 1" />
        <SubmitButton>Enrol a tablet</SubmitButton>
      </Form>
      <table className="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Status</th>
            <th>Last seen</th>
            <th>Action</th>
          </tr>
        </thead>
        <tbody>
          {(devices ?? []).map((d) => (
            <tr key={d.identifier}>
              <td>{d.name}</td>
              <td>{d.status}</td>
              <td>{d.last_seen_at ? new Date(d.last_seen_at).toLocaleString() : "—"}</td>
              <td>{d.status === "revoked" ? null : <Button className="btn btn-sm btn-secondary" onPress={() => void revoke(d)} aria-label={`Revoke ${d.name}`}>
                    Revoke
                  </Button>}</td>
            </tr>
          ))}
          {devices && devices.length === 0 ? (
            <tr>
              <td colSpan={4}>No tablet enrolled yet</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </section>
  );
}

/** Modules of quiet zone around the code: the QR standard asks for 4, and scanners need them. */
const QR_QUIET_ZONE = 4;

/**
 * A QR code drawn as one SVG path of its dark modules on white (always dark on light, whatever the
 * page's theme: the kiosk's decoder does not try inverted codes).
 */
function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => {
    // Level M survives a glare spot on a phone screen and keeps the signed code at a readable density.
    const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
    let d = "";
    for (let y = 0; y < modules.size; y++) {
      for (let x = 0; x < modules.size; x++) if (modules.get(x, y)) d += `M${x + QR_QUIET_ZONE} ${y + QR_QUIET_ZONE}h1v1h-1z`;
    }
    return { size: modules.size + 2 * QR_QUIET_ZONE, path: d };
  }, [text]);
  return (
    <svg className="qr-code" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width="280" height="280" shapeRendering="crispEdges" data-testid="baby-qr">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

function BabyCode() {
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
  if (!baby) return <p>Register your baby first.</p>;
  const show = async () => {
    setError(null);
    try {
      setCode((await request<{ code: string; expires_at: string }>("GET", "/user/baby-qr", { query: { baby_identifier: baby.identifier } })).results);
      setNow(Date.now());
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <section className="panel narrow-panel" aria-labelledby="baby-code-title">
      <h2 id="baby-code-title">Code for the clinic</h2>
      <p className="card-subtitle">
        At your physician's clinic, hold this QR code up to the kiosk tablet's camera so the staff can pick {baby.name} without typing. Each code works once, for 10 minutes.
      </p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {code && !expired ? (
        <div className="baby-code" data-testid="baby-code">
          <QrCode text={code.code} label={`QR code for ${baby.name}, valid until ${new Date(code.expires_at).toLocaleTimeString()}`} />
          <p>
            If the camera cannot read it, the staff can type this code:
            <br />
            <code className="typed-code">{code.code}</code>
          </p>
          <p>Valid until {new Date(code.expires_at).toLocaleTimeString()}</p>
        </div>
      ) : null}
      {expired ? <FormMessage tone="error">The code has expired. Show a new one.</FormMessage> : null}
      <Button className="btn btn-primary" onPress={() => void show()}>
        {code ? "Show a new code" : "Show QR code"}
      </Button>
    </section>
  );
}

export default function KioskSettings() {
  const session = useSession();
  const role = session?.userRole;
  return (
    <div className="page page-stack">
      <h1 id="page-title">Kiosk</h1>
      {role === "physician" || role === "physician_staff" ? <PinForm /> : null}
      {role === "physician" ? <Devices /> : null}
      {role === "parent" ? <BabyCode /> : null}
    </div>
  );
}
