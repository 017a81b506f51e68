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
export const exportForEhr = async (row: ResultItem, parent = false): Promise<boolean> => {
  try {
    const blob = await fhirBlob(crown, fhirBase(), (fhir) => fhir.DiagnosticReport[":id"][":operation"].$get({ param: { id: row.identifier, operation: "$document" } }));
    saveAndOpen(new Blob([blob], { type: FHIR_JSON }), fhirFileName(row), null);
    toast(i18next.t(parent ? "reporting:fhir.parentDownloaded" : "reporting:fhir.downloaded"), "success");
    return true;
  } catch (e) {
    toast(messageOf(e, i18next.t("reporting:fhir.failed")), "error");
    return false;
  }
};

/**
 * "Export for EHR (FHIR)" on a provider's published result. A parent gets the same file under words that say
 * what it is for (a health-record file to give another doctor or a health app; the note above the list
 * explains it), not the EHR jargon (issue 46).
 */
export function FhirExportButton({ row, parent = false, when }: { row: ResultItem; parent?: boolean; when?: string }) {
  const { t } = useTranslation("reporting");
  const date = when ?? day(row.uploaded_date);
  return (
    <Button className="link-btn fhir-export" aria-label={t(parent ? "fhir.parentExportOf" : "fhir.exportOf", { name: row.baby_name, date })} onPress={() => void exportForEhr(row, parent)}>
      {t(parent ? "fhir.parentExport" : "fhir.export")}
    </Button>
  );
}
