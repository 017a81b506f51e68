export * from "./report.tsx";
