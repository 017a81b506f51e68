import i18next from "i18next";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { toast } from "../ui/toasts.tsx";
import { downloadReport, saveAndOpen } from "./api.ts";

/**
 * "Open the report" beside a "report ready" notification: the published PDF, as Results downloads it
 * (the parent's copy for a parent, the practice's otherwise), so the bell leads to what it announces (issue 46).
 */
export function OpenReportButton({ report, parent, onOpen }: { report: string; parent: boolean; onOpen?: () => void }) {
  const { t } = useTranslation("app");
  return (
    <Button
      className="link-inline"
      onPress={() => {
        onOpen?.();
        downloadReport(report, parent).then(
          (blob) => {
            saveAndOpen(blob, "Result.pdf");
            toast(i18next.t("app:header.reportOpened"), "success");
          },
          (e: unknown) => toast(messageOf(e), "error"),
        );
      }}
    >
      {t("header.openReport")}
    </Button>
  );
}
