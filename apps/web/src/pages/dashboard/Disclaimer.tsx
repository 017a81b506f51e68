import { useState } from "react";
import { Button } from "react-aria-components";
import { useNavigate } from "react-router-dom";
import { messageOf } from "../../api/client.ts";
import { acceptDisclaimer } from "../../api/onboarding.ts";
import { updateSession } from "../../session/store.ts";
import { ModalDialog } from "../../ui/dialogs.tsx";
import { CheckField, FormMessage } from "../../ui/fields.tsx";

export const DISCLAIMER_REQUIRED = "Please accept the terms of Disclaimer";

/** Shown on first login: Continue is enabled only after ticking 'I have read the Disclaimer'; then the quiz instructions. */
export function DisclaimerDialog({ isOpen }: { isOpen: boolean }) {
  const navigate = useNavigate();
  const [read, setRead] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const accept = async () => {
    if (!read) {
      setError(DISCLAIMER_REQUIRED);
      return;
    }
    setPending(true);
    setError(null);
    try {
      const { results } = await acceptDisclaimer();
      updateSession({ disclaimerAccepted: true, isFirstLogin: false, step: results.step });
      navigate("/quiz-instructions");
    } catch (err) {
      setError(messageOf(err, DISCLAIMER_REQUIRED));
    } finally {
      setPending(false);
    }
  };
  return (
    <ModalDialog isOpen={isOpen} title="Disclaimer" role="alertdialog" wide>
      <div className="disclaimer-text" tabIndex={0} role="region" aria-label="Disclaimer text">
        <p>
          Crown is a screening aid. It measures your baby's head shape from photos and videos and reports indices that experts review. It
          does <strong>not</strong> give a diagnosis or treatment and it does <strong>not</strong> replace a doctor. Talk to your physician
          about every result and about any concern for your child's health.
        </p>
        <p>
          Your data is kept confidential. Photos and videos you submit may be used, with identities hidden, to check and improve the
          quality of our measurements.
        </p>
        <p>Reports are usually ready within one business day. If a scan cannot be measured, we will tell you what to take again.</p>
      </div>
      <CheckField name="disclaimer" isSelected={read} onChange={(v) => { setRead(v); setError(null); }} error={error ?? undefined}>
        I have read the Disclaimer
      </CheckField>
      {error && read ? <FormMessage tone="error">{error}</FormMessage> : null}
      <div className="dialog-actions">
        <Button className="btn btn-primary" isDisabled={!read || pending} onPress={() => void accept()}>
          Continue
        </Button>
      </div>
    </ModalDialog>
  );
}
