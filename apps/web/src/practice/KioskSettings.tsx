import { type FormEvent, useEffect, useState } from "react";
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
              <td>{d.status === "revoked" ? null : <Button onPress={() => void revoke(d)}>Revoke</Button>}</td>
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

function BabyCode() {
  const session = useSession();
  const baby = selectedBaby(session);
  const [code, setCode] = useState<{ code: string; expires_at: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!baby) return <p>Register your baby first.</p>;
  const show = async () => {
    setError(null);
    try {
      setCode((await request<{ code: string; expires_at: string }>("GET", "/user/baby-qr", { query: { baby_identifier: baby.identifier } })).results);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <section className="panel narrow-panel" aria-labelledby="baby-code-title">
      <h2 id="baby-code-title">Code for the clinic</h2>
      <p className="card-subtitle">At your physician's clinic, show this code to the kiosk so the staff can pick {baby.name} without typing. It works for 10 minutes.</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {code ? (
        <p className="baby-code" data-testid="baby-code">
          <code>{code.code}</code>
          <br />
          Valid until {new Date(code.expires_at).toLocaleTimeString()}
        </p>
      ) : null}
      <Button className="button" onPress={() => void show()}>
        Show code
      </Button>
    </section>
  );
}

export default function KioskSettings() {
  const session = useSession();
  const role = session?.userRole;
  return (
    <div className="page">
      <h1 id="page-title">Kiosk</h1>
      {role === "physician" || role === "physician_staff" ? <PinForm /> : null}
      {role === "physician" ? <Devices /> : null}
      {role === "parent" ? <BabyCode /> : null}
    </div>
  );
}
