// Measurement: from a top-view photo to CI, CVAI and the quality verdict (shared/spec/measurement.md).
export * from "./image.ts";
export * from "./outline.ts";
export * from "./bulges.ts";
export * from "./landmarks.ts";
export * from "./geometry.ts";
export * from "./scale.ts";
export * from "./verdict.ts";
export * from "./bands.ts";
export * from "./aggregate.ts";
export * from "./model.ts";
export * from "./analyze.ts";
export * from "./views.ts";
export * from "./agreement.ts";
export * from "./overlay-legend.ts";
