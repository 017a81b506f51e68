import i18next from "i18next";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { FHIR_JSON, FHIR_PATH } from "@crown/core/fhir/codes";
import { fhirBlob } from "@crown/client/extras";
import { API_BASE, crown, messageOf } from "../api/crown.ts";
import { day } from "../i18n/dates.ts";
import { toast } from "../ui/toasts.tsx";
import { saveAndOpen, type ResultItem } from "./api.ts";

/** The FHIR API on the same server as the JSON API (API_BASE may name another origin). */
const fhirBase = () => new URL(FHIR_PATH, new URL(API_BASE, window.location.origin)).href;

/** The file an EHR imports: the report's FHIR document Bundle (issue 20). */
export const fhirFileName = (row: Pick<ResultItem, "baby_name" | "uploaded_date">) =>
  `${row.baby_name.replace(/[^A-Za-z0-9]+/g, "-")}-${row.uploaded_date.slice(0, 10)}-fhir.json`;

/** Downloads the published report as a FHIR R4 document Bundle (Composition, Patient, report, Observations, the PDF). */
export const exportForEhr = async (row: ResultItem): Promise<boolean> => {
  try {
    const blob = await fhirBlob(crown, fhirBase(), (fhir) => fhir.DiagnosticReport[":id"][":operation"].$get({ param: { id: row.identifier, operation: "$document" } }));
    saveAndOpen(new Blob([blob], { type: FHIR_JSON }), fhirFileName(row), null);
    toast(i18next.t("reporting:fhir.downloaded"), "success");
    return true;
  } catch (e) {
    toast(messageOf(e, i18next.t("reporting:fhir.failed")), "error");
    return false;
  }
};

/** "Export for EHR (FHIR)" on a published result (provider and parent Results). */
export function FhirExportButton({ row }: { row: ResultItem }) {
  const { t } = useTranslation("reporting");
  return (
    <Button className="link-btn fhir-export" aria-label={t("fhir.exportOf", { name: row.baby_name, date: day(row.uploaded_date) })} onPress={() => void exportForEhr(row)}>
      {t("fhir.export")}
    </Button>
  );
}
