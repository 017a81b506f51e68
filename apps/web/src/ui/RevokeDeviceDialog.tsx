import { REVOCATION_REASONS, type RevocationReason, type RevocationReasonShown } from "@crown/core/kiosk/revocation";
import { useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Choice } from "./choices.tsx";
import { ModalDialog } from "./dialogs.tsx";

/** A kiosk device's reason in words (the device lists of the admin console and the practice); empty while it is not revoked. */
export const useRevocationReasonName = () => {
  const { t } = useTranslation("common");
  return (reason: RevocationReasonShown | null | undefined) => (reason ? t(`kioskRevocation.reason.${reason}`) : "");
};

/**
 * Asks why a kiosk tablet is revoked, from core's one list (ADR 0170), before it is: the tablet will
 * show the reason and the date, never who revoked it. Open while `device` names one.
 */
export function RevokeDeviceDialog(p: { readonly device: string | null; readonly onCancel: () => void; readonly onRevoke: (reason: RevocationReason) => void }) {
  const { t } = useTranslation("common");
  return (
    <ModalDialog isOpen={p.device !== null} onOpenChange={(open) => !open && p.onCancel()} title={t("kioskRevocation.title", { name: p.device ?? "" })} dismissable>
      {/* Keyed by the device: a reason picked for one tablet is never carried to the next. */}
      {p.device !== null ? <ReasonForm key={p.device} onCancel={p.onCancel} onRevoke={p.onRevoke} /> : null}
    </ModalDialog>
  );
}

function ReasonForm(p: { readonly onCancel: () => void; readonly onRevoke: (reason: RevocationReason) => void }) {
  const { t } = useTranslation("common");
  const name = useRevocationReasonName();
  const [reason, setReason] = useState<RevocationReason | "">("");
  const [error, setError] = useState<string | undefined>(undefined);
  const confirm = () => {
    if (reason === "") return setError(t("kioskRevocation.required"));
    p.onRevoke(reason);
  };
  return (
    <>
      <p>{t("kioskRevocation.intro")}</p>
      <Choice
        name="revocation-reason"
        label={t("kioskRevocation.reasonLabel")}
        layout="column"
        options={REVOCATION_REASONS.map((value) => ({ value, label: name(value) }))}
        value={reason}
        onChange={(value) => {
          setReason(value as RevocationReason);
          setError(undefined);
        }}
        error={error}
      />
      <div className="dialog-actions">
        <Button className="btn btn-primary" onPress={confirm}>
          {t("kioskRevocation.confirm")}
        </Button>
        <Button className="btn btn-secondary" onPress={p.onCancel}>
          {t("kioskRevocation.cancel")}
        </Button>
      </div>
    </>
  );
}
