import { useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { type DeviceOverview, kioskApi } from "../crown.ts";
import { ErrorLine, handleFailure, Header, type Send } from "./shared.tsx";

/** Who signs in, as the device's staff list names them (their type decides the minimum good shots). */
export type PinPadStaff = DeviceOverview["staff"][number];

/** The PIN pad of the staff member who tapped their name. */
export function PinPad({ staff, send, onBack }: { staff: PinPadStaff; send: Send; onBack: () => void }) {
  const { t } = useTranslation("attract");
  const [pin, setPin] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async () => {
    setPending(true);
    setError(null);
    try {
      const result = await kioskApi.signIn(staff.identifier, pin);
      send({ type: "SIGNED_IN", staff: { ...result.staff, role: staff.type }, session: result.token });
    } catch (e) {
      setPin("");
      handleFailure(e, send, setError);
    } finally {
      setPending(false);
    }
  };
  const press = (d: string) => setPin((p) => (p.length < 8 ? p + d : p));
  return (
    <section className="panel narrow pinpad">
      <Header title={t("pin.hello", { name: staff.name })} subtitle={t("pin.enter")} />
      <p className="pin-dots" data-testid="pin-dots">
        <span aria-hidden="true">{pin.length > 0 ? "●".repeat(pin.length) : "\u00a0"}</span>
        <span className="visually-hidden">{t("pin.entered", { count: pin.length })}</span>
      </p>
      <ErrorLine message={error} />
      <div className="keys">
        {["1", "2", "3", "4", "5", "6", "7", "8", "9"].map((d) => (
          <Button key={d} className="key" onPress={() => press(d)}>
            {d}
          </Button>
        ))}
        <Button className="key secondary" onPress={() => setPin((p) => p.slice(0, -1))} aria-label={t("pin.delete")}>
          ⌫
        </Button>
        <Button className="key" onPress={() => press("0")}>
          0
        </Button>
        <Button className="key primary small-text" onPress={() => void submit()} isDisabled={pending || pin.length < 4}>
          {t("pin.signIn")}
        </Button>
      </div>
      <Button className="big secondary" onPress={onBack}>
        {t("pin.back")}
      </Button>
    </section>
  );
}
