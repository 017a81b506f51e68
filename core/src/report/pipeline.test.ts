import { fc, test } from "@fast-check/vitest";
import { Cause, Effect, Exit, Option } from "effect";
import { describe, expect, it } from "vitest";
import { makeTestWorld } from "../testing/memory.ts";
import { makeOnboardingWorld } from "../testing/onboarding-memory.ts";
import { analyzeReport, giveUpAnalysis } from "./analyze-report.ts";
import { finalizeReport } from "./finalize-report.ts";
import { prepareReport } from "./prepare-report.ts";
import { type UploadPart, uploadAttachments } from "./upload.ts";
import { decidePhoto } from "./decide-photo.ts";
import { publishReport } from "./publish-report.ts";
import { at, aUser, PARENT, PHYSICIAN, REVIEWER, BABY, Crash, fakePhoto, makeReportWorld, type ReportWorld } from "./testing.ts";


// Six views of one head, within measurement error of each other (photo-agreement.ts).
const PHOTOS = [0, 1, 2, 3, 4, 5].map((i) => fakePhoto(60 + (i % 3), 80, i));

const newWorld = () => {
  const w = makeReportWorld(makeOnboardingWorld(makeTestWorld()));
  for (const u of [PARENT, PHYSICIAN, REVIEWER]) w.addUser(u);
  w.addBaby(BABY);
  return w;
};

async function* parts(reportId: string): AsyncGenerator<UploadPart> {
  yield { type: "field", name: "report_identifier", value: reportId };
  for (const [i, bytes] of PHOTOS.entries()) {
    yield { type: "file", name: "attachments[]", fileName: `photo-${i + 1}.png`, stream: new Blob([bytes as Uint8Array<ArrayBuffer>]).stream() };
  }
}

/** The pipeline as the client and the worker drive it: each step is retried after a crash. */
const steps = (w: ReportWorld, state: { reportId: string }) => [
  async () => {
    state.reportId = (await w.run(w.as(PARENT)(prepareReport({ baby_identifier: BABY.id, analysis_type: "head_ci_cvai_analysis" })))).report_identifier;
  },
  async () => void (await w.run(w.as(PARENT)(uploadAttachments(parts(state.reportId))))),
  async () => void (await w.run(w.as(PARENT)(finalizeReport({ report_identifier: state.reportId })))),
  async () => void (await w.run(analyzeReport(state.reportId))),
  async () => {
    const first = [...w.attachments.values()].find((a) => a.reportId === state.reportId && a.fileName === "photo-1.png")!;
    await w.run(w.as(REVIEWER)(decidePhoto(state.reportId, { attachment_identifier: first.id, decision: "reject", reason: "Image is blurry" })));
  },
  async () => void (await w.run(w.as(REVIEWER)(publishReport(state.reportId)))),
];

const isCrash = (error: unknown) => error instanceof Crash || (Exit.isExit(error) && Exit.isFailure(error) && Option.exists(Cause.dieOption(error.cause), (d) => d instanceof Crash));

const runAll = async (w: ReportWorld) => {
  const state = { reportId: "" };
  let crashed = 0;
  for (const step of steps(w, state)) {
    try {
      await step();
    } catch (error) {
      if (!isCrash(error)) throw error;
      crashed++;
      w.writes.crashAt = null;
      await step();
    }
  }
  return { reportId: state.reportId, crashed };
};

const checkCompleted = (w: ReportWorld, reportId: string) => {
  const report = w.reports.get(reportId)!;
  expect(report.status).toBe("published");
  expect(report.reviewerId).toBe(REVIEWER.id);
  expect(report.version).toBe(1);
  expect(w.versions.filter((v) => v.reportId === reportId)).toHaveLength(1);
  const files = [...w.attachments.values()].filter((a) => a.reportId === reportId && a.kind !== "frame");
  // Every photo exactly once, each with its bytes in storage and its measurement.
  expect(files.map((a) => a.fileName).sort()).toEqual(PHOTOS.map((_, i) => `photo-${i + 1}.png`));
  expect(new Set(files.map((a) => a.sha256)).size).toBe(PHOTOS.length);
  for (const a of files) {
    expect(w.onboarding.world.blobs.has(a.blobKey)).toBe(true);
    expect(w.measurements.get(a.id)?.ci).not.toBeNull();
  }
  expect(report.analysis?.accepted).toBe(PHOTOS.length - 1);
  expect(report.analysis?.ci?.count).toBe(PHOTOS.length - 1);
  // Notified once each, with the report.
  const notes = [...w.onboarding.notifications.values()].filter((n) => n.kind === "report_published" && n.subjectId === reportId);
  expect(notes.map((n) => n.userId).sort()).toEqual([PARENT.id, PHYSICIAN.id].sort());
};

describe("report pipeline on the in-memory world", () => {
  it("a job that keeps failing hands the report to review with the reason, keeping what was measured", async () => {
    const w = newWorld();
    const state = { reportId: "" };
    const all = steps(w, state);
    for (const step of all.slice(0, 3)) await step();
    await w.run(giveUpAnalysis(state.reportId, "onnxruntime: out of memory"));
    const report = w.reports.get(state.reportId)!;
    expect(report.status).toBe("analyzed");
    expect(report.analysis?.problems[0]).toMatch(/failed after several attempts.*out of memory/);
    // A late retry of the job changes nothing.
    expect(await w.run(analyzeReport(state.reportId))).toEqual({ skipped: true });
  });

  it("without ffmpeg the report says so, and the video is kept for review", async () => {
    const w = newWorld();
    const id = (await w.run(w.as(PARENT)(prepareReport({ baby_identifier: BABY.id, analysis_type: "head_ci_cvai_analysis" })))).report_identifier;
    const mp4 = new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 1, 2, 3, 4]);
    async function* files(): AsyncGenerator<UploadPart> {
      yield { type: "field", name: "report_identifier", value: id };
      yield { type: "file", name: "attachments[]", fileName: "photo.png", stream: new Blob([PHOTOS[0]! as Uint8Array<ArrayBuffer>]).stream() };
      yield { type: "file", name: "attachments[]", fileName: "clip.mp4", stream: new Blob([mp4]).stream() };
    }
    await w.run(w.as(PARENT)(uploadAttachments(files())));
    await w.run(w.as(PARENT)(finalizeReport({ report_identifier: id })));
    await w.run(analyzeReport(id));
    const report = w.reports.get(id)!;
    expect(report.status).toBe("analyzed");
    expect(report.analysis?.problems).toEqual([expect.stringMatching(/^Videos were not analysed: ffmpeg is not installed.*The videos are kept for review\.$/)]);
    const video = [...w.attachments.values()].find((a) => a.reportId === id && a.kind === "video")!;
    expect(video.extension).toBe("mp4");
    expect(w.onboarding.world.blobs.has(video.blobKey)).toBe(true);
    expect(report.analysis?.accepted).toBe(1);
  });

  it("runs end to end with real geometry: the fake heads' CI comes out of the measurement", async () => {
    const w = newWorld();
    const { reportId, crashed } = await runAll(w);
    expect(crashed).toBe(0);
    checkCompleted(w, reportId);
    const m = [...w.measurements.values()].find((x) => x.reportId === reportId && x.decision === null)!;
    expect(m.accepted).toBe(true);
    expect(m.ci).toBeGreaterThan(70);
    expect(m.ci).toBeLessThan(100);
    // Each photo with its display copy and thumbnail (ADR 0031), and the PDF.
    expect(w.onboarding.world.blobs.size).toBe(PHOTOS.length * 3 + 1);
  });

  it("publishing needs the reviewer role: a physician or parent cannot", async () => {
    const w = newWorld();
    const state = { reportId: "" };
    const all = steps(w, state);
    for (const step of all.slice(0, 4)) await step();
    for (const who of [PARENT, PHYSICIAN]) {
      const exit = await w.exit(w.as(who)(publishReport(state.reportId)));
      expect(Exit.isFailure(exit)).toBe(true);
    }
    expect(w.reports.get(state.reportId)!.status).toBe("analyzed");
  });
});

// A crash-free run makes this many writes (repository writes, blob puts, enqueues).
const totalWrites = async () => {
  const w = newWorld();
  await runAll(w);
  return w.writes.count;
};
const WRITES = await totalWrites();

describe("crash between any two steps", () => {
  test.prop([fc.integer({ min: 1, max: WRITES })], { numRuns: 10 })(
    "a crash at any write leaves a report that a retry completes, with no photo lost or counted twice",
    async (crashAt) => {
      const w = newWorld();
      w.writes.crashAt = crashAt;
      const { reportId, crashed } = await runAll(w);
      expect(crashed).toBe(1);
      checkCompleted(w, reportId);
    },
  );

  it(`covers every one of the ${WRITES} writes once`, async () => {
    for (let crashAt = 1; crashAt <= WRITES; crashAt++) {
      const w = newWorld();
      w.writes.crashAt = crashAt;
      const { reportId, crashed } = await runAll(w);
      expect(crashed).toBe(1);
      checkCompleted(w, reportId);
    }
  });
});
