import { existsSync } from "node:fs";
import { Circle, Document, Font, Image, Line, Page, Polyline, renderToBuffer, StyleSheet, Svg, Text, View } from "@react-pdf/renderer";
import { bandRange, CI_BANDS, CVAI_BANDS, OVERLAY_STYLES, type OverlayMark, overlayLegend } from "@crown/core/measurement/index";
import { type ReportDocument, ReportRenderer, type ReportRendererPort } from "@crown/core/report/index";
import { analysisNoteIn } from "@crown/core/i18n/mails/notices";
import { Effect, Layer } from "effect";
import { PhotoDisagreement } from "./agreement.tsx";
import { Chart, type ChartPoint, pointsByDay } from "./chart.tsx";
import { pdfText, type PdfText } from "./i18n.ts";

/**
 * The published report as a PDF, laid out with @react-pdf/renderer from `ReportDocument` (which
 * core fills in). Fonts are the system's DejaVu files: nothing is fetched at render time.
 */

const FONT_DIR = process.env.CROWN_FONT_DIR ?? "/usr/share/fonts/truetype/dejavu";
let family = "Helvetica";
const registerFonts = () => {
  const regular = `${FONT_DIR}/DejaVuSans.ttf`;
  const bold = `${FONT_DIR}/DejaVuSans-Bold.ttf`;
  if (family !== "Helvetica" || !existsSync(regular) || !existsSync(bold)) return;
  Font.register({ family: "DejaVu", fonts: [{ src: regular }, { src: bold, fontWeight: "bold" }] });
  Font.registerHyphenationCallback((word) => [word]);
  family = "DejaVu";
};

const styles = StyleSheet.create({
  page: { padding: 36, paddingBottom: 56, fontSize: 9.5, color: "#1f2937", lineHeight: 1.35 },
  h1: { fontSize: 18, fontWeight: "bold", lineHeight: 1.25, marginBottom: 6, color: "#1e3a8a" },
  h2: { fontSize: 12, fontWeight: "bold", marginTop: 12, marginBottom: 6, color: "#1e3a8a" },
  row: { flexDirection: "row" },
  label: { width: 110, color: "#6b7280" },
  value: { flex: 1 },
  box: { borderWidth: 1, borderColor: "#d1d5db", borderRadius: 4, padding: 8, marginRight: 8, flex: 1 },
  big: { fontSize: 20, fontWeight: "bold", lineHeight: 1.2, marginVertical: 2 },
  small: { fontSize: 8, color: "#6b7280" },
  photos: { flexDirection: "row", flexWrap: "wrap" },
  legend: { flexDirection: "row", flexWrap: "wrap", marginBottom: 6 },
  legendEntry: { flexDirection: "row", alignItems: "center", marginRight: 10, marginBottom: 2 },
  photo: { width: 170, marginRight: 8, marginBottom: 10 },
  footer: { position: "absolute", bottom: 24, left: 36, right: 36, fontSize: 7.5, color: "#6b7280" },
  previewMark: { position: "absolute", top: 12, left: 36, right: 36, fontSize: 9, fontWeight: "bold", color: "#b91c1c", textAlign: "center" },
});

/** What core wrote in English that the PDF prints in the document's language: the age, a video frame's label. */
const localAge = (age: string, text: PdfText) => {
  const m = /^(\d+) months? (\d+) days?$/.exec(age);
  if (m) return text.t("age", { months: Number(m[1]), days: Number(m[2]) });
  return age === "unknown" ? text.t("unknown") : age;
};
const localLabel = (label: string, text: PdfText) => {
  const m = /^Video frame ([\d.]+) s$/.exec(label);
  return m ? text.t("videoFrame", { seconds: text.number(Number(m[1])) }) : label;
};

const Field = ({ label, value }: { label: string; value: string }) => (
  <View style={styles.row}>
    <Text style={styles.label}>{label}</Text>
    <Text style={styles.value}>{value}</Text>
  </View>
);

type Photo = ReportDocument["photos"][number];

/** A photo with its overlay: outline, AP axis (length), width, the two diagonals and the nose tip. */
const PhotoWithOverlay = ({ photo, text }: { photo: Photo; text: PdfText }) => {
  const g = photo.geometry;
  const width = 170;
  const height = (width * g.imageHeight) / g.imageWidth;
  const stroke = Math.max(g.imageWidth, g.imageHeight) / 170;
  const points = g.outline.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  // Each mark in its colour from core's legend, the one the review console draws with.
  const seg = (s: readonly [{ x: number; y: number }, { x: number; y: number }] | null | undefined, mark: OverlayMark) => {
    const { colour, dashed } = OVERLAY_STYLES[mark];
    return s ? <Line x1={s[0].x} y1={s[0].y} x2={s[1].x} y2={s[1].y} stroke={colour} strokeWidth={stroke * 1.2} {...(dashed ? { strokeDasharray: `${stroke * 4} ${stroke * 3}` } : {})} /> : null;
  };
  return (
    <View style={styles.photo} wrap={false}>
      <View style={{ width, height, position: "relative" }}>
        <Image src={{ data: Buffer.from(photo.jpeg), format: "jpg" }} style={{ width, height }} />
        <Svg viewBox={`0 0 ${g.imageWidth} ${g.imageHeight}`} style={{ position: "absolute", top: 0, left: 0, width, height }}>
          {points ? <Polyline points={`${points} ${points.split(" ")[0]}`} stroke={OVERLAY_STYLES.outline.colour} strokeWidth={stroke} fill="none" /> : null}
          {seg(g.lengthEnds, "length")}
          {seg(g.widthEnds, "width")}
          {seg(g.diagonals?.endpoints.a, "diagonalA")}
          {seg(g.diagonals?.endpoints.b, "diagonalB")}
          {g.noseTip ? <Circle cx={g.noseTip.x} cy={g.noseTip.y} r={stroke * 3} fill={OVERLAY_STYLES.noseTip.colour} stroke="#111827" strokeWidth={stroke / 2} /> : null}
        </Svg>
      </View>
      <Text style={styles.small}>
        {localLabel(photo.label, text)}: {text.language === "es" ? "IC" : "CI"} {text.number(photo.ci)}, CVAI {text.number(photo.cvai)}
      </Text>
    </View>
  );
};

/** A chart with its points also written out (dates as the portal writes them), for readers who cannot see it. */
const HistoryChart = (p: { title: string; axis: string; color: string; points: ReadonlyArray<ChartPoint>; bands: typeof CI_BANDS | typeof CVAI_BANDS; normal: number; text: PdfText }) => (
  <View wrap={false}>
    <Text style={{ fontWeight: "bold", marginBottom: 2 }}>{p.title}</Text>
    <Chart title={p.title} axisLabel={p.axis} points={p.points} bands={p.bands} normal={p.normal} color={p.color} text={p.text} />
    {/* The same points the chart plots: one a day. */}
    {pointsByDay(p.points, p.text.day).map((pt, i) => (
      <Text key={i} style={styles.small}>
        {p.text.day(pt.date)}: {p.text.number(pt.value)}
      </Text>
    ))}
  </View>
);

/** What every page carries: the preview mark at the top of a reviewer's preview, the disclaimer at the foot. */
const PageMarks = ({ preview, disclaimer }: { preview: string | null; disclaimer: string }) => (
  <>
    {preview ? (
      <Text style={styles.previewMark} fixed>
        {preview}
      </Text>
    ) : null}
    <Text style={styles.footer} fixed>
      {disclaimer}
    </Text>
  </>
);

/** The marks the photos carry, each a swatch in its colour beside its name (core's legend, as in the review console). */
const PDF_MARKS: ReadonlyArray<OverlayMark> = ["outline", "length", "width", "diagonalA", "diagonalB", "noseTip"];
const OverlayLegend = ({ text }: { text: PdfText }) => (
  <View style={styles.legend}>
    {overlayLegend(text.language, PDF_MARKS).map((entry) => (
      <View key={entry.mark} style={styles.legendEntry} wrap={false}>
        <Svg width={16} height={6}>
          {entry.mark === "noseTip" ? (
            <Circle cx={8} cy={3} r={2.6} fill={entry.colour} stroke="#111827" strokeWidth={0.5} />
          ) : (
            <Line x1={0} y1={3} x2={16} y2={3} stroke={entry.colour} strokeWidth={2.5} {...(entry.dashed ? { strokeDasharray: "4 2" } : {})} />
          )}
        </Svg>
        <Text style={{ ...styles.small, marginLeft: 3 }}>{entry.label}</Text>
      </View>
    ))}
  </View>
);

/** The accepted photos with their overlays, under the legend of the overlay's colours. */
const AcceptedPhotos = ({ photos, text, first = false }: { photos: ReadonlyArray<Photo>; text: PdfText; first?: boolean }) => (
  <>
    <Text style={first ? { ...styles.h2, marginTop: 0 } : styles.h2}>{text.t("acceptedPhotos")}</Text>
    <OverlayLegend text={text} />
    <View style={styles.photos}>
      {photos.map((p, i) => (
        <PhotoWithOverlay key={i} photo={p} text={text} />
      ))}
    </View>
  </>
);

const spread = (s: { median: number; min: number; max: number; count: number } | null, text: PdfText) =>
  s ? text.t("spread", { median: text.number(s.median), min: text.number(s.min), max: text.number(s.max), count: s.count }) : text.t("notMeasured");

/** The report in the document's language (`doc.language`, English when absent): words, dates and numbers (ADR 77). */
export const ReportPdf = ({ doc }: { doc: ReportDocument }) => {
  const text = pdfText(doc.language);
  const { t, day } = text;
  const english = text.language === "en";
  const title = english ? doc.title : t("title");
  const disclaimer = english ? doc.disclaimer : t("disclaimer");
  const ci = english ? "CI" : "IC";
  return (
  <Document title={`${title}: ${doc.baby.name}`} author="Crown" subject={t("docSubject")} creator="Crown" producer="Crown" language={english ? "en-US" : "es-US"}>
    <Page size="LETTER" style={{ ...styles.page, fontFamily: family }}>
      <PageMarks preview={doc.kind === "preview" ? t("previewMark") : null} disclaimer={disclaimer} />
      <Text style={styles.h1}>{title}</Text>
      <Text style={styles.small}>
        {t(doc.kind === "preview" ? "previewOf" : "versionOf", { version: doc.version, date: day(doc.publishedAt) })}
      </Text>
      <Text style={styles.h2}>{t("baby")}</Text>
      <Field label={t("name")} value={doc.baby.name} />
      <Field label={t("dateOfBirth")} value={doc.baby.dateOfBirth ? day(doc.baby.dateOfBirth) : t("notAvailable")} />
      <Field label={t("ageAtCapture")} value={localAge(doc.baby.ageAtCapture, text)} />
      <Field label={t("capturedOn")} value={day(doc.capturedAt)} />
      <Field label={t("provider")} value={doc.provider === "No Physician" ? t("noPhysician") : doc.provider} />
      <Field label={t("reviewedBy")} value={doc.reviewer} />

      <Text style={styles.h2}>{t("results")}</Text>
      <View style={styles.row}>
        <View style={styles.box}>
          <Text>{t("ciTitle")}</Text>
          <Text style={styles.big}>{text.number(doc.summary.ci?.median)}</Text>
          <Text>{doc.summary.ci && !english ? text.ciBand(doc.summary.ci.median) : doc.bands.ci ?? ""}</Text>
          <Text style={styles.small}>{spread(doc.summary.ci, text)}</Text>
        </View>
        <View style={styles.box}>
          <Text>{t("cvaiTitle")}</Text>
          <Text style={styles.big}>{text.number(doc.summary.cvai?.median)}</Text>
          <Text>{doc.summary.cvai && !english ? text.cvaiBand(doc.summary.cvai.median) : doc.bands.cvai ?? ""}</Text>
          <Text style={styles.small}>{spread(doc.summary.cvai, text)}</Text>
        </View>
        {doc.summary.cva_mm ? (
          <View style={styles.box}>
            <Text>{t("cvaMm")}</Text>
            <Text style={styles.big}>{text.number(doc.summary.cva_mm.median)}</Text>
            <Text style={styles.small}>{spread(doc.summary.cva_mm, text)}</Text>
          </View>
        ) : null}
      </View>
      <Text style={{ ...styles.small, marginTop: 4 }}>
        {t("ciBands", { bands: CI_BANDS.map((b) => `${text.bandLabel(b)} ${bandRange(b)}`).join("; ") })}
      </Text>
      <Text style={styles.small}>
        {t("cvaiLevels", { bands: CVAI_BANDS.map((b) => `${text.bandLabel(b)} ${bandRange(b)}`).join("; ") })}
      </Text>
      <PhotoDisagreement summary={doc.summary} text={text} />
      {doc.note ? (
        <>
          <Text style={styles.h2}>{t("reviewerNote")}</Text>
          <Text>{doc.note}</Text>
        </>
      ) : null}
      {doc.summary.problems.length > 0 ? (
        <>
          <Text style={styles.h2}>{t("analysisNotes")}</Text>
          {doc.summary.problems.map((p, i) => (
            <Text key={i}>• {analysisNoteIn(text.language, p)}</Text>
          ))}
        </>
      ) : null}

      <Text style={styles.h2}>{t("overTime")}</Text>
      <View style={styles.row}>
        <HistoryChart title={t("ciTitle")} axis={ci} color="#2563eb" points={doc.history.map((h) => ({ date: h.date, value: h.ci }))} bands={CI_BANDS} normal={CI_BANDS.findIndex((b) => b.name === "typical")} text={text} />
        <HistoryChart title={t("cvai")} axis="CVAI" color="#dc2626" points={doc.history.map((h) => ({ date: h.date, value: h.cvai }))} bands={CVAI_BANDS} normal={CVAI_BANDS.findIndex((b) => b.level === 1)} text={text} />
      </View>
      <Text style={styles.small}>{t("shading")}</Text>

      <Text style={styles.h2}>{t("important")}</Text>
      <Text>{disclaimer}</Text>
      <Text style={{ ...styles.small, marginTop: 4 }}>{text.citation(doc.citation, CI_BANDS.map((b) => `${bandRange(b)} ${text.bandLabel(b)}`).join(", "))}</Text>

      {doc.photos.length === 0 ? <AcceptedPhotos photos={doc.photos} text={text} /> : null}
    </Page>
    {/* The photos start a page of their own as a Page, not as a `break` inside the first: a break whose
        heading no longer fitted left a page with nothing but the footer (issue 46). */}
    {doc.photos.length > 0 ? (
      <Page size="LETTER" style={{ ...styles.page, fontFamily: family }}>
        <PageMarks preview={doc.kind === "preview" ? t("previewMark") : null} disclaimer={disclaimer} />
        <AcceptedPhotos photos={doc.photos} text={text} first />
      </Page>
    ) : null}
  </Document>
  );
};

export const renderReportPdf = async (doc: ReportDocument): Promise<Uint8Array> => {
  registerFonts();
  const buffer = await renderToBuffer(<ReportPdf doc={doc} />);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
};

export const makeReportRenderer = (): ReportRendererPort => ({ render: (doc) => Effect.promise(() => renderReportPdf(doc)) });
export const reportRendererLayer = Layer.sync(ReportRenderer, makeReportRenderer);
