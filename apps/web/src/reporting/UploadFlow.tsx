import { useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router-dom";
import { PatientPicker, type PickedBaby } from "../capture/PatientPicker.tsx";
import { UploadDialog } from "./UploadDialog.tsx";
import { selectedBaby, useSession } from "../session/store.ts";
import { ModalDialog } from "../ui/dialogs.tsx";

/**
 * The header's Upload dialog (spec: all roles that upload). Parents upload for the selected baby;
 * providers and staff first choose the patient. The upload itself is the shared UploadDialog.
 */
export default function UploadFlow({ onDone }: { onDone: () => void }) {
  // The header opens this flow: its words (reporting, and capture's patient picker) load with it.
  const { t, ready } = useTranslation(["reporting", "capture"]);
  const session = useSession();
  const navigate = useNavigate();
  const provider = session?.userRole === "physician" || session?.userRole === "physician_staff";
  const own = selectedBaby(session);
  const [picked, setPicked] = useState<PickedBaby | null>(null);
  const [chosen, setChosen] = useState<PickedBaby | null>(provider ? null : own ? { identifier: own.identifier, name: own.name } : null);
  const finish = (uploaded: boolean) => {
    onDone();
    if (uploaded) navigate(provider ? "/dashboard" : "/uploads");
  };

  if (!ready) return null;
  if (chosen) {
    return <UploadDialog isOpen babyIdentifier={chosen.identifier} babyName={chosen.name} onClose={finish} />;
  }
  if (!provider) {
    return (
      <ModalDialog isOpen title={t("upload.title")} dismissable onOpenChange={(o) => !o && onDone()}>
        <p>{t("flow.addBabyFirst")}</p>
        <div className="dialog-actions">
          <Button className="btn btn-ghost" onPress={onDone}>
            {t("upload.cancel")}
          </Button>
          <Link className="btn btn-primary" to="/profile?tab=child" onClick={onDone}>
            {t("flow.addChild")}
          </Link>
        </div>
      </ModalDialog>
    );
  }
  return (
    <ModalDialog isOpen title={t("upload.title")} dismissable onOpenChange={(o) => !o && onDone()}>
      <p>{t("flow.choosePatient")}</p>
      <PatientPicker value={picked} onChange={setPicked} />
      <div className="dialog-actions">
        <Button className="btn btn-ghost" onPress={onDone}>
          {t("upload.cancel")}
        </Button>
        <Button className="btn btn-primary" isDisabled={!picked} onPress={() => setChosen(picked)}>
          {t("flow.continue")}
        </Button>
      </div>
    </ModalDialog>
  );
}
