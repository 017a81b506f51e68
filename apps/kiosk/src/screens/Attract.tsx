import type { KioskContext } from "@crown/core/kiosk/machine";
import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { type DeviceOverview, kioskApi } from "../crown.ts";
import { PinPad, type PinPadStaff } from "./PinPad.tsx";
import { ErrorLine, handleFailure, Header, type Send } from "./shared.tsx";

/** The attract screen: the practice, and the staff who can sign in with their PIN. */
export function Attract({ context, send }: { context: KioskContext; send: Send }) {
  const { t } = useTranslation("attract");
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
      <Header title={t("title")} subtitle={`${context.device?.name ?? ""} · ${overview?.practice ?? context.device?.practice ?? ""}`} />
      <p className="lead">{t("lead")}</p>
      <ErrorLine message={error} />
      <div className="tiles">
        {(overview?.staff ?? []).map((s) => (
          <Button key={s.identifier} className="tile" onPress={() => setPicked(s)}>
            {s.name}
          </Button>
        ))}
        {overview && overview.staff.length === 0 ? <p>{t("noPins", { address: `${location.origin}/kiosk-settings` })}</p> : null}
      </div>
    </section>
  );
}
