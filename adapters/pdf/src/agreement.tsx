import { Text, View } from "@react-pdf/renderer";
import { describeDisagreement, photosDisagree } from "@crown/core/measurement/index";
import type { AnalysisSummary } from "@crown/core/report/index";
import type { PdfText } from "./i18n.ts";

/**
 * When the accepted photos disagreed beyond measurement error (issue 22, item 11), the report says
 * so beside the figures, with the spread, rather than letting the median speak alone.
 */
export const PhotoDisagreement = ({ summary, text }: { summary: AnalysisSummary; text: PdfText }) => {
  const agreement = summary.agreement ?? [];
  if (!photosDisagree(agreement)) return null;
  return (
    <View style={{ borderWidth: 1, borderColor: "#d97706", backgroundColor: "#fffbeb", borderRadius: 4, padding: 8, marginTop: 8 }} wrap={false}>
      <Text style={{ fontWeight: "bold", color: "#92400e" }}>{text.t("disagreeTitle")}</Text>
      {agreement
        .filter((a) => a.disagree)
        .map((a) => (
          <Text key={a.index}>{describeDisagreement(a)}.</Text>
        ))}
      <Text>
        {summary.unconfirmed === 0 ? text.t("disagreeChecked") : text.t("disagreeUnchecked")}
        {text.t("disagreeMedian")}
      </Text>
    </View>
  );
};
