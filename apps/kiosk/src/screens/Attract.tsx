import type { KioskContext } from "@crown/core/kiosk/machine";
import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { type DeviceOverview, kioskApi } from "../api.ts";
import { PinPad, type PinPadStaff } from "./PinPad.tsx";
import { ErrorLine, handleFailure, Header, type Send } from "./shared.tsx";

/** The attract screen: the practice, and the staff who can sign in with their PIN. */
export function Attract({ context, send }: { context: KioskContext; send: Send }) {
  const [overview, setOverview] = useState<DeviceOverview | null>(null);
  const [picked, setPicked] = useState<PinPadStaff | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      kioskApi
        .device()
        .then((o) => live && (setOverview(o), setError(null)))
        .catch((e) => live && handleFailure(e, send, setError));
    void load();
    // Refreshes who can sign in (a PIN set meanwhile); revocation is the heartbeat's job.
    const timer = window.setInterval(load, 30_000);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [send]);
  if (picked) return <PinPad staff={picked} send={send} onBack={() => setPicked(null)} />;
  return (
    <section className="attract">
      <Header title="Crown head-shape scan" subtitle={`${context.device?.name ?? ""} · ${overview?.practice ?? context.device?.practice ?? ""}`} />
      <p className="lead">Tap your name to sign in with your PIN.</p>
      <ErrorLine message={error} />
      <div className="tiles">
        {(overview?.staff ?? []).map((s) => (
          <Button key={s.identifier} className="tile" onPress={() => setPicked(s)}>
            {s.name}
          </Button>
        ))}
        {overview && overview.staff.length === 0 ? <p>
            No one has set a kiosk PIN yet. Physicians and their staff set one in the Crown portal at {`${location.origin}/kiosk-settings`}, under “My kiosk PIN”.
          </p> : null}
      </div>
    </section>
  );
}
