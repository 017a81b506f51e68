import { useState } from "react";
import { Button } from "react-aria-components";
import { Link, useNavigate } from "react-router-dom";
import { PatientPicker, type PickedBaby } from "../capture/PatientPicker.tsx";
import { UploadDialog } from "../reporting/UploadDialog.tsx";
import { selectedBaby, useSession } from "../session/store.ts";
import { ModalDialog } from "./dialogs.tsx";

/**
 * The header's Upload dialog (spec: all roles that upload). Parents upload for the selected baby;
 * providers and staff first choose the patient. The upload itself is the shared UploadDialog.
 */
export default function UploadFlow({ onDone }: { onDone: () => void }) {
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

  if (chosen) {
    return <UploadDialog isOpen babyIdentifier={chosen.identifier} babyName={chosen.name} onClose={finish} />;
  }
  if (!provider) {
    return (
      <ModalDialog isOpen title="Upload photos and video" dismissable onOpenChange={(o) => !o && onDone()}>
        <p>Please add your baby in your profile first.</p>
        <div className="dialog-actions">
          <Button className="btn btn-ghost" onPress={onDone}>
            Cancel
          </Button>
          <Link className="btn btn-primary" to="/profile?tab=child" onClick={onDone}>
            Add New Child
          </Link>
        </div>
      </ModalDialog>
    );
  }
  return (
    <ModalDialog isOpen title="Upload photos and video" dismissable onOpenChange={(o) => !o && onDone()}>
      <p>Choose the patient these photos and the video are of.</p>
      <PatientPicker value={picked} onChange={setPicked} />
      <div className="dialog-actions">
        <Button className="btn btn-ghost" onPress={onDone}>
          Cancel
        </Button>
        <Button className="btn btn-primary" isDisabled={!picked} onPress={() => setChosen(picked)}>
          Continue
        </Button>
      </div>
    </ModalDialog>
  );
}
