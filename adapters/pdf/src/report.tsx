import { existsSync } from "node:fs";
import { Circle, Document, Font, Image, Line, Page, Polyline, renderToBuffer, StyleSheet, Svg, Text, View } from "@react-pdf/renderer";
import { bandRange, CI_BANDS, CVAI_BANDS } from "@crown/core/measurement/index";
import { formatUsDate } from "@crown/core/shared/dates";
import { type ReportDocument, ReportRenderer, type ReportRendererPort } from "@crown/core/report/index";
import { Effect, Layer } from "effect";
import { PhotoDisagreement } from "./agreement.tsx";
import { Chart, type ChartPoint } from "./chart.tsx";

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
  photo: { width: 170, marginRight: 8, marginBottom: 10 },
  footer: { position: "absolute", bottom: 24, left: 36, right: 36, fontSize: 7.5, color: "#6b7280" },
  previewMark: { position: "absolute", top: 12, left: 36, right: 36, fontSize: 9, fontWeight: "bold", color: "#b91c1c", textAlign: "center" },
});

const fmt = (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? "n/a" : n.toFixed(digits));
// Dates as the portal writes them (MM/DD/YYYY), by the one shared formatter.
const day = (d: Date | string) => formatUsDate(d);

const Field = ({ label, value }: { label: string; value: string }) => (
  <View style={styles.row}>
    <Text style={styles.label}>{label}</Text>
    <Text style={styles.value}>{value}</Text>
  </View>
);

type Photo = ReportDocument["photos"][number];

/** A photo with its overlay: outline, AP axis (length), width, the two diagonals and the nose tip. */
const PhotoWithOverlay = ({ photo }: { photo: Photo }) => {
  const g = photo.geometry;
  const width = 170;
  const height = (width * g.imageHeight) / g.imageWidth;
  const stroke = Math.max(g.imageWidth, g.imageHeight) / 170;
  const points = g.outline.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  const seg = (s: readonly [{ x: number; y: number }, { x: number; y: number }] | null | undefined, color: string, dashed = false) =>
    s ? <Line x1={s[0].x} y1={s[0].y} x2={s[1].x} y2={s[1].y} stroke={color} strokeWidth={stroke * 1.2} {...(dashed ? { strokeDasharray: `${stroke * 4} ${stroke * 3}` } : {})} /> : null;
  return (
    <View style={styles.photo} wrap={false}>
      <View style={{ width, height, position: "relative" }}>
        <Image src={{ data: Buffer.from(photo.jpeg), format: "jpg" }} style={{ width, height }} />
        <Svg viewBox={`0 0 ${g.imageWidth} ${g.imageHeight}`} style={{ position: "absolute", top: 0, left: 0, width, height }}>
          {points ? <Polyline points={`${points} ${points.split(" ")[0]}`} stroke="#22c55e" strokeWidth={stroke} fill="none" /> : null}
          {seg(g.lengthEnds, "#3b82f6")}
          {seg(g.widthEnds, "#f59e0b")}
          {seg(g.diagonals?.endpoints.a, "#ef4444", true)}
          {seg(g.diagonals?.endpoints.b, "#a855f7", true)}
          {g.noseTip ? <Circle cx={g.noseTip.x} cy={g.noseTip.y} r={stroke * 3} fill="#ef4444" /> : null}
        </Svg>
      </View>
      <Text style={styles.small}>
        {photo.label}: CI {fmt(photo.ci)}, CVAI {fmt(photo.cvai)}
      </Text>
    </View>
  );
};

/** A chart with its points also written out (dates as the portal writes them), for readers who cannot see it. */
const HistoryChart = (p: { title: string; axis: string; color: string; points: ReadonlyArray<ChartPoint>; bands: typeof CI_BANDS | typeof CVAI_BANDS; normal: number }) => (
  <View wrap={false}>
    <Text style={{ fontWeight: "bold", marginBottom: 2 }}>{p.title}</Text>
    <Chart title={p.title} axisLabel={p.axis} points={p.points} bands={p.bands} normal={p.normal} color={p.color} />
    {p.points
      .filter((pt) => pt.value !== null)
      .map((pt, i) => (
        <Text key={i} style={styles.small}>
          {day(pt.date)}: {fmt(pt.value)}
        </Text>
      ))}
  </View>
);

const spread = (s: { median: number; min: number; max: number; count: number } | null) =>
  s ? `${fmt(s.median)} (range ${fmt(s.min)} to ${fmt(s.max)}, ${s.count} photo${s.count === 1 ? "" : "s"})` : "not measured";

export const ReportPdf = ({ doc }: { doc: ReportDocument }) => (
  <Document title={`${doc.title}: ${doc.baby.name}`} author="Crown" subject="Infant head-shape screening" creator="Crown" producer="Crown">
    <Page size="LETTER" style={{ ...styles.page, fontFamily: family }}>
      {doc.kind === "preview" ? (
        <Text style={styles.previewMark} fixed>
          PREVIEW: not published, for the reviewer only
        </Text>
      ) : null}
      <Text style={styles.h1}>{doc.title}</Text>
      <Text style={styles.small}>
        {doc.kind === "preview" ? `Preview of version ${doc.version}, rendered ${day(doc.publishedAt)}` : `Version ${doc.version}, published ${day(doc.publishedAt)}`}
      </Text>
      <Text style={styles.h2}>Baby</Text>
      <Field label="Name" value={doc.baby.name} />
      <Field label="Date of birth" value={doc.baby.dateOfBirth ? day(doc.baby.dateOfBirth) : "n/a"} />
      <Field label="Age at capture" value={doc.baby.ageAtCapture} />
      <Field label="Captured on" value={day(doc.capturedAt)} />
      <Field label="Provider" value={doc.provider} />
      <Field label="Reviewed by" value={doc.reviewer} />

      <Text style={styles.h2}>Results</Text>
      <View style={styles.row}>
        <View style={styles.box}>
          <Text>Cranial Index (CI)</Text>
          <Text style={styles.big}>{fmt(doc.summary.ci?.median)}</Text>
          <Text>{doc.bands.ci ?? ""}</Text>
          <Text style={styles.small}>{spread(doc.summary.ci)}</Text>
        </View>
        <View style={styles.box}>
          <Text>Cranial Vault Asymmetry Index (CVAI)</Text>
          <Text style={styles.big}>{fmt(doc.summary.cvai?.median)}</Text>
          <Text>{doc.bands.cvai ?? ""}</Text>
          <Text style={styles.small}>{spread(doc.summary.cvai)}</Text>
        </View>
        {doc.summary.cva_mm ? (
          <View style={styles.box}>
            <Text>CVA (mm)</Text>
            <Text style={styles.big}>{fmt(doc.summary.cva_mm.median)}</Text>
            <Text style={styles.small}>{spread(doc.summary.cva_mm)}</Text>
          </View>
        ) : null}
      </View>
      <Text style={{ ...styles.small, marginTop: 4 }}>
        CI bands: {CI_BANDS.map((b) => `${b.label} ${bandRange(b)}`).join("; ")}.
      </Text>
      <Text style={styles.small}>
        CVAI levels: {CVAI_BANDS.map((b) => `${b.label} ${bandRange(b)}`).join("; ")}.
      </Text>
      <PhotoDisagreement summary={doc.summary} />
      {doc.note ? (
        <>
          <Text style={styles.h2}>Reviewer's note</Text>
          <Text>{doc.note}</Text>
        </>
      ) : null}
      {doc.summary.problems.length > 0 ? (
        <>
          <Text style={styles.h2}>Notes from the analysis</Text>
          {doc.summary.problems.map((p, i) => (
            <Text key={i}>• {p}</Text>
          ))}
        </>
      ) : null}

      <Text style={styles.h2}>Over time</Text>
      <View style={styles.row}>
        <HistoryChart title="Cranial Index (CI)" axis="CI" color="#2563eb" points={doc.history.map((h) => ({ date: h.date, value: h.ci }))} bands={CI_BANDS} normal={CI_BANDS.findIndex((b) => b.name === "typical")} />
        <HistoryChart title="CVAI" axis="CVAI" color="#dc2626" points={doc.history.map((h) => ({ date: h.date, value: h.cvai }))} bands={CVAI_BANDS} normal={CVAI_BANDS.findIndex((b) => b.level === 1)} />
      </View>
      <Text style={styles.small}>Shading: the severity bands listed above, lightest for the typical range.</Text>

      <Text style={styles.h2}>Important</Text>
      <Text>{doc.disclaimer}</Text>
      <Text style={{ ...styles.small, marginTop: 4 }}>{doc.citation}</Text>

      <Text style={styles.h2} break={doc.photos.length > 0}>
        Accepted photos
      </Text>
      <Text style={styles.small}>
        Green: head outline. Blue: length along the nose axis. Orange: width. Red and purple (dashed): the diagonals at ±30°. Dot: nose tip.
      </Text>
      <View style={styles.photos}>
        {doc.photos.map((p, i) => (
          <PhotoWithOverlay key={i} photo={p} />
        ))}
      </View>

      <Text style={styles.footer} fixed>
        {doc.disclaimer}
      </Text>
    </Page>
  </Document>
);

export const renderReportPdf = async (doc: ReportDocument): Promise<Uint8Array> => {
  registerFonts();
  const buffer = await renderToBuffer(<ReportPdf doc={doc} />);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
};

export const makeReportRenderer = (): ReportRendererPort => ({ render: (doc) => Effect.promise(() => renderReportPdf(doc)) });
export const reportRendererLayer = Layer.sync(ReportRenderer, makeReportRenderer);
