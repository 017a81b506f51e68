import { useState } from "react";
import { Button, Input, Label, TextField } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { ApiError, kioskApi, storeDevice } from "../crown.ts";
import { ErrorLine, Header, type Send } from "./shared.tsx";

/** An unpaired tablet: the one-time pairing code from the portal enrols it. */
export function Pairing({ send }: { send: Send }) {
  const { t } = useTranslation("pairing");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const pair = async () => {
    setPending(true);
    setError(null);
    try {
      const result = await kioskApi.pair(code);
      storeDevice({ credential: result.device_credential, device: result.device });
      send({ type: "PAIRED", device: result.device });
    } catch (e) {
      setError(e instanceof ApiError && e.offline ? t("common:errors.offline") : e instanceof Error ? e.message : t("common:errors.generic"));
    } finally {
      setPending(false);
    }
  };
  return (
    <section className="panel narrow">
      <Header title={t("title")} subtitle={t("subtitle")} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void pair();
        }}
      >
        <TextField validationBehavior="aria" value={code} onChange={(v) => setCode(v.toUpperCase())} isInvalid={!!error} autoFocus>
          <Label>{t("code")}</Label>
          <Input className="code-input" autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={12} data-testid="pairing-code" />
        </TextField>
        <ErrorLine message={error} />
        <Button type="submit" className="big" isDisabled={pending || code.replace(/[\s-]/g, "").length < 8}>
          {t("submit")}
        </Button>
      </form>
    </section>
  );
}
