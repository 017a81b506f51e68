import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder Crown's files are found under: the checkout's root when run from source (this file is
 * apps/server/src/paths.ts), the release folder when run from the release build (the bundle is
 * <release>/apps/server/dist/crown.mjs, as deep). The release keeps the checkout's layout for exactly
 * this: every path below resolves the same way in both (ADR 0139).
 */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** Where the server looks for the head-contour model unless CROWN_MODEL names one (model.json beside it). */
export const DEFAULT_MODEL_PATH = path.join(repoRoot, "models/head-contour/head-contour.onnx");

/** The portal's quiz pool (images, verdicts, reasons): the server grades quizzes against the same file. */
export const QUIZ_POOL_FILE = path.join(repoRoot, "apps/web/public/quiz/manifest.json");

/** The built portal and kiosk (`pnpm build`), with their brotli and gzip copies. */
export const WEB_DIST = path.join(repoRoot, "apps/web/dist");
export const KIOSK_DIST = path.join(repoRoot, "apps/kiosk/dist");

/** The migrated embedded cluster a new data directory starts from: written by the release build beside the bundle (ADR 0172). */
export const PGLITE_TEMPLATE = path.join(repoRoot, "pglite-template.tar.gz");
