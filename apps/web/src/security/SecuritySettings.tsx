import { useCallback, useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import {
  regenerateRecoveryCodes,
  removeAuthenticatorApp,
  removePasskey,
  type SecondFactorStatus,
  secondFactorStatus,
  turnOffSecondFactor,
} from "../api/secondFactor.ts";
import { day } from "../i18n/dates.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { RecoveryCodes, SecondFactorSetup } from "./SecondFactorSetup.tsx";
import { useProof } from "./useProof.tsx";

/**
 * The profile's two-step sign-in (issue 44): offered to parents, kept by staff. Every change asks
 * for the password or a passkey again when the last proof is over ten minutes old.
 */
export function SecuritySettings() {
  const { t } = useTranslation("security");
  const { withProof, dialog } = useProof();
  const [status, setStatus] = useState<SecondFactorStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [codes, setCodes] = useState<ReadonlyArray<string> | null>(null);

  const load = useCallback(async () => {
    try {
      setStatus((await secondFactorStatus()).results);
    } catch (err) {
      setError(messageOf(err));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const act = async (call: () => Promise<{ message: string }>) => {
    setError(null);
    try {
      const { message } = await withProof(call);
      toast(message, "success");
      await load();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  if (!status) return error ? <FormMessage tone="error">{error}</FormMessage> : <PageSpinner />;
  return (
    <section aria-labelledby="security-title" className="security-settings">
      <h2 id="security-title">{t("settings.title")}</h2>
      <p>{status.enabled ? t("settings.on") : t("settings.off")}</p>
      {status.required ? <p className="muted small">{t("settings.required")}</p> : null}
      {status.enabled && !adding ? (
        <>
          <h3>{t("settings.app")}</h3>
          {status.authenticator_app ? (
            <div className="form-actions">
              <span>{t("settings.appOn")}</span>
              <Button className="btn btn-secondary" onPress={() => setAdding(true)}>
                {t("settings.replaceApp")}
              </Button>
              {!status.required || status.passkeys.length > 0 ? (
                <Button className="btn btn-secondary" onPress={() => void act(removeAuthenticatorApp)}>
                  {t("settings.removeApp")}
                </Button>
              ) : null}
            </div>
          ) : null}
          <h3>{t("settings.passkeys")}</h3>
          {status.passkeys.length === 0 ? <p className="muted">{t("settings.noPasskeys")}</p> : null}
          <ul className="passkey-list" aria-label={t("settings.passkeys")}>
            {status.passkeys.map((p) => (
              <li key={p.identifier}>
                <strong>{p.name}</strong> {p.synced ? <span className="muted">({t("passkey.synced")})</span> : null}{" "}
                <span className="muted small">
                  {t("passkey.added", { date: day(p.created_at) })}, {p.last_used_at ? t("passkey.lastUsed", { date: day(p.last_used_at) }) : t("passkey.never")}
                </span>{" "}
                <Button className="btn btn-secondary btn-small" aria-label={`${t("passkey.remove")} ${p.name}`} onPress={() => void act(() => removePasskey(p.identifier))}>
                  {t("passkey.remove")}
                </Button>
              </li>
            ))}
          </ul>
          <div className="form-actions">
            <Button className="btn btn-secondary" onPress={() => setAdding(true)}>
              {t("settings.addMore")}
            </Button>
          </div>
          <h3>{t("codes.title")}</h3>
          <p>{t("codes.left", { count: status.recovery_codes_left })}</p>
          <div className="form-actions">
            <Button
              className="btn btn-secondary"
              onPress={async () => {
                setError(null);
                try {
                  setCodes((await withProof(regenerateRecoveryCodes)).results.recovery_codes);
                  await load();
                } catch (err) {
                  setError(messageOf(err));
                }
              }}
            >
              {t("codes.regenerate")}
            </Button>
            {!status.required ? (
              <Button className="btn btn-danger" onPress={() => void act(turnOffSecondFactor)}>
                {t("settings.turnOff")}
              </Button>
            ) : null}
          </div>
        </>
      ) : (
        <SecondFactorSetup
          run={withProof}
          onDone={() => {
            setAdding(false);
            toast(t("settings.done"), "success");
            void load();
          }}
        />
      )}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {dialog}
    </section>
  );
}
