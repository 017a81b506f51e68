// Reports: capture, analysis, expert review, PDF reports, results and downloads (issue 4).
export * from "./lifecycle.ts";
export * from "./model.ts";
export * from "./access.ts";
export * from "./capture.ts";
export * from "./upload.ts";
export * from "./analysis.ts";
export * from "./review.ts";
export * from "./results.ts";
export * from "./mail-jobs.ts";
