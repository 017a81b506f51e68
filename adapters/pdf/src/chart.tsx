import { Circle, G, Line, Polyline, Rect, Svg, Text, View } from "@react-pdf/renderer";
import type { SeverityBand } from "@crown/core/measurement/index";
import type { PdfText } from "./i18n.ts";

/**
 * One index across the baby's published reports: the severity bands shaded behind (the band the
 * index calls normal lightest, deeper the further from it), a y axis with values, an x axis with the
 * capture dates (MM/DD/YYYY, as the portal writes them), and each point labelled with its value.
 */

const W = 250;
const H = 150;
const LEFT = 36;
const RIGHT = 10;
const TOP = 8;
const BOTTOM = 30;
const SHADES = ["#e8f5ee", "#fdf6d8", "#fde7cf", "#fbd5d0", "#f6c3d6"];
const AXIS = "#6b7280";

/** Round steps (1, 2, 2.5, 5 × 10^n) giving about five ticks over [lo, hi]. */
const tickStep = (span: number) => {
  const raw = span / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
};

export interface ChartPoint {
  readonly date: Date;
  readonly value: number | null;
}

/**
 * The points a chart plots: one a day (the day as the reader sees it), the last report of that day,
 * so that two reports of one date never draw a line as if they were a trend.
 */
export const pointsByDay = (points: ReadonlyArray<ChartPoint>, dayOf: (d: Date) => string): Array<{ date: Date; value: number }> => {
  const days = new Map<string, { date: Date; value: number }>();
  for (const pt of [...points].sort((a, b) => a.date.getTime() - b.date.getTime())) {
    if (pt.value === null) continue;
    const key = dayOf(pt.date);
    days.delete(key);
    days.set(key, { date: pt.date, value: pt.value });
  }
  return [...days.values()];
};

/**
 * The value axis: the points and the band limits next to them with a margin, in round steps, never
 * below zero (neither index can be negative, so an axis down to -5 only shows what cannot happen).
 */
export const valueAxis = (values: ReadonlyArray<number>, bands: ReadonlyArray<SeverityBand>) => {
  const limits = bands.flatMap((b) => (b.from === null ? [] : [b.from]));
  const lo0 = Math.max(0, Math.min(...values, limits[0] ?? 0) - 2);
  const hi0 = Math.max(...values, limits[limits.length - 1] ?? 1) + 2;
  const step = tickStep(hi0 - lo0);
  return { lo: Math.max(0, Math.floor(lo0 / step) * step), hi: Math.ceil(hi0 / step) * step, step };
};

export const Chart = (p: { title: string; axisLabel: string; points: ReadonlyArray<ChartPoint>; bands: ReadonlyArray<SeverityBand>; normal: number; color: string; text: PdfText }) => {
  const plotted = pointsByDay(p.points, p.text.day);
  const { lo, hi, step } = valueAxis(
    plotted.map((x) => x.value),
    p.bands,
  );
  const times = plotted.map((x) => x.date.getTime());
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const x = (t: number) => LEFT + 8 + (t1 === t0 ? (W - LEFT - RIGHT - 16) / 2 : ((t - t0) / (t1 - t0)) * (W - LEFT - RIGHT - 16));
  const y = (v: number) => TOP + ((hi - v) / (hi - lo)) * (H - TOP - BOTTOM);
  const ticks: number[] = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Math.round(v * 100) / 100);
  // At most five dates under the axis: the first, the last and some between.
  const labelled = plotted.length <= 5 ? plotted : [0, 1, 2, 3, 4].map((i) => plotted[Math.round((i * (plotted.length - 1)) / 4)]!);
  return (
    <View style={{ marginRight: 12 }} wrap={false}>
      <Svg width={W} height={H}>
        {p.bands.map((b, i) => {
          const top = y(Math.min(hi, b.to ?? hi));
          const bottom = y(Math.max(lo, b.from ?? lo));
          return bottom > top ? <Rect key={b.label} x={LEFT} y={top} width={W - LEFT - RIGHT} height={bottom - top} fill={SHADES[Math.min(SHADES.length - 1, Math.abs(i - p.normal))]} /> : null;
        })}
        <Line x1={LEFT} y1={TOP} x2={LEFT} y2={H - BOTTOM} stroke={AXIS} strokeWidth={0.8} />
        <Line x1={LEFT} y1={H - BOTTOM} x2={W - RIGHT} y2={H - BOTTOM} stroke={AXIS} strokeWidth={0.8} />
        {ticks.map((v) => (
          <G key={v}>
            <Line x1={LEFT - 3} y1={y(v)} x2={LEFT} y2={y(v)} stroke={AXIS} strokeWidth={0.6} />
            <Text x={LEFT - 5} y={y(v) + 2} style={{ fontSize: 6 }} fill={AXIS} textAnchor="end">
              {String(v)}
            </Text>
          </G>
        ))}
        {labelled.map((pt) => (
          <G key={pt.date.getTime()}>
            <Line x1={x(pt.date.getTime())} y1={H - BOTTOM} x2={x(pt.date.getTime())} y2={H - BOTTOM + 3} stroke={AXIS} strokeWidth={0.6} />
            <Text x={x(pt.date.getTime())} y={H - BOTTOM + 10} style={{ fontSize: 6 }} fill={AXIS} textAnchor="middle">
              {p.text.day(pt.date)}
            </Text>
          </G>
        ))}
        <Text x={(LEFT + W - RIGHT) / 2} y={H - 4} style={{ fontSize: 6.5 }} fill={AXIS} textAnchor="middle">
          {p.text.t("captureDate")}
        </Text>
        <Text x={2} y={TOP + 6} style={{ fontSize: 6.5 }} fill={AXIS}>
          {p.axisLabel}
        </Text>
        {plotted.length > 1 ? <Polyline points={plotted.map((pt) => `${x(pt.date.getTime())},${y(pt.value)}`).join(" ")} stroke={p.color} strokeWidth={1.4} fill="none" /> : null}
        {plotted.map((pt) => (
          <G key={pt.date.getTime()}>
            <Circle cx={x(pt.date.getTime())} cy={y(pt.value)} r={2.4} fill={p.color} />
            <Text x={x(pt.date.getTime())} y={y(pt.value) - 4} style={{ fontSize: 6 }} fill="#111827" textAnchor="middle">
              {p.text.number(pt.value)}
            </Text>
          </G>
        ))}
      </Svg>
    </View>
  );
};
