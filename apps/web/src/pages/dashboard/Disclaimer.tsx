import { useState } from "react";
import { Button } from "react-aria-components";
import { Trans, useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { messageOf } from "../../api/crown.ts";
import { acceptDisclaimer } from "../../api/onboarding.ts";
import { updateSession } from "../../session/store.ts";
import { ModalDialog } from "../../ui/dialogs.tsx";
import { CheckField, FormMessage } from "../../ui/fields.tsx";

/** Shown on first login: Continue is enabled only after ticking 'I have read the Disclaimer'; then the quiz instructions. */
export function DisclaimerDialog({ isOpen }: { isOpen: boolean }) {
  const { t } = useTranslation("dashboard");
  const navigate = useNavigate();
  const [read, setRead] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const accept = async () => {
    if (!read) {
      setError(t("disclaimer.required"));
      return;
    }
    setPending(true);
    setError(null);
    try {
      const { results } = await acceptDisclaimer();
      updateSession({ disclaimerAccepted: true, isFirstLogin: false, step: results.step });
      navigate("/quiz-instructions");
    } catch (err) {
      setError(messageOf(err, t("disclaimer.required")));
    } finally {
      setPending(false);
    }
  };
  return (
    <ModalDialog isOpen={isOpen} title={t("disclaimer.title")} role="alertdialog" wide>
      <div className="disclaimer-text" tabIndex={0} role="region" aria-label={t("disclaimer.region")}>
        <p>
          <Trans t={t} i18nKey="disclaimer.aid" components={{ strong: <strong /> }} />
        </p>
        <p>{t("disclaimer.data")}</p>
        <p>{t("disclaimer.timing")}</p>
      </div>
      <CheckField name="disclaimer" isSelected={read} onChange={(v) => { setRead(v); setError(null); }} error={error ?? undefined}>
        {t("disclaimer.read")}
      </CheckField>
      {error && read ? <FormMessage tone="error">{error}</FormMessage> : null}
      <div className="dialog-actions">
        <Button className="btn btn-primary" isDisabled={!read || pending} onPress={() => void accept()}>
          {t("disclaimer.continue")}
        </Button>
      </div>
    </ModalDialog>
  );
}
