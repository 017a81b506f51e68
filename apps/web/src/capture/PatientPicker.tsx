import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { day } from "../i18n/dates.ts";
import { actingFor, listPatients, type Patient } from "../practice/api.ts";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";

export interface PickedBaby {
  readonly identifier: string;
  readonly name: string;
}

/** Providers and staff capture for one of the practice's patients. */
export function PatientPicker({ value, onChange }: { value: PickedBaby | null; onChange: (b: PickedBaby | null) => void }) {
  const { t } = useTranslation("capture");
  const session = useSession();
  const [patients, setPatients] = useState<ReadonlyArray<Patient> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const acting = actingFor(session);
  useEffect(() => {
    if (session?.userRole === "physician_staff" && !session.activePhysicianId) return;
    listPatients(1, { per_page: 100, search: "", ...acting })
      .then((r) => setPatients(r.results.data))
      .catch((e) => setError(messageOf(e)));
  }, [acting.physician_identifier]);
  if (error) return <FormMessage tone="error">{error}</FormMessage>;
  return (
    <div className="field patient-picker">
      <label htmlFor="capture-patient">{t("picker.label")}</label>
      <select
        id="capture-patient"
        value={value?.identifier ?? ""}
        onChange={(e) => {
          const p = patients?.find((x) => x.identifier === e.currentTarget.value);
          onChange(p ? { identifier: p.identifier, name: p.name } : null);
        }}
      >
        <option value="">{patients === null ? t("picker.loading") : patients.length === 0 ? t("picker.none") : t("picker.choose")}</option>
        {(patients ?? []).map((p) => (
          <option key={p.identifier} value={p.identifier}>
            {t("picker.option", { name: p.name, date: day(p.date_of_birth) })}
          </option>
        ))}
      </select>
    </div>
  );
}
