import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { QUALITY_REASONS } from "@crown/core/measurement/index";
import { modelAvailable, modelPath, samplesDir } from "@crown/inference/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../compose.ts";
import { evaluateSet } from "./evaluate.ts";

/**
 * Issue 41, item 4: `crown model:evaluate --set DIR` on rendered photos with known outlines prints
 * the figures tests/bench/generalisation.bench.ts prints for the same model and photos.
 */
describe.skipIf(!modelAvailable())("model:evaluate on a rendered set", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "crown-evaluate-"));
    // The committed samples (rendered, held out) in the bench's truth.json format.
    const samples = JSON.parse(readFileSync(path.join(samplesDir(), "truth.json"), "utf8")) as {
      images: Array<{ image: string; reasons: string[]; cap: boolean; ci: number; cvai: number; sticker: { x: number; y: number; radius: number } | null }>;
    };
    const items = samples.images.map((s) => {
      copyFileSync(path.join(samplesDir(), s.image), path.join(dir, s.image));
      return {
        image: s.image,
        ci: s.ci,
        cvai: s.cvai,
        reasons: s.reasons.map((r) => (QUALITY_REASONS as ReadonlyArray<string>).indexOf(r)),
        cap: s.cap,
        sticker: s.sticker ? [s.sticker.x, s.sticker.y, s.sticker.radius] : null,
      };
    });
    writeFileSync(path.join(dir, "truth.json"), JSON.stringify({ seed: 7001, items }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("matches the bench: acceptance of good photos, CI and CVAI MAE where accepted, each reason's catch", async () => {
    const lines: string[] = [];
    const ours = await evaluateSet(dir, modelPath(), (l) => void lines.push(l));
    const json = path.join(dir, "bench.json");
    execFileSync(process.execPath, ["--import", "tsx", path.join(repoRoot, "tests/bench/generalisation.bench.ts"), dir, "--json", json], { cwd: repoRoot, stdio: "ignore" });
    const bench = JSON.parse(readFileSync(json, "utf8")) as Record<string, any>;
    expect(ours.photos).toBe(8);
    expect(ours.reviewer).toEqual({ accepted: 6, rejected: 2 });
    expect(ours.verdicts[0]!.reviewer_accepted).toBe(bench["good:all"].accepted);
    expect(ours.figures.n).toBe(bench["good:all"].accepted);
    expect(Number(ours.figures.ci_mae!.toFixed(2))).toBe(bench["good:all"].ci_mae);
    expect(Number(ours.figures.cvai_mae!.toFixed(2))).toBe(bench["good:all"].cvai_mae);
    for (const r of ours.per_reason) expect({ n: r.n, not_accepted: r.not_accepted, named: r.named }).toEqual(bench[`bad:${r.reason}`]);
    expect(lines.join("")).toContain(`CI MAE ${ours.figures.ci_mae!.toFixed(2)}`);
  }, 300_000);
});
