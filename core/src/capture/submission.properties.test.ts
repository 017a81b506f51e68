import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { createActor, waitFor } from "xstate";
import {
  type SubmissionEvent,
  type SubmissionFailure,
  type SubmissionFile,
  type SubmissionReport,
  submissionActors,
  submissionMachine,
  transientStatus,
} from "./submission.ts";

/**
 * The submission machine headless, like the kiosk's wipe invariant: fast-check writes how each call
 * answers (progress, success, a transient failure, a refusal) and what the person does meanwhile
 * (cancel all, cancel or retry one file, finish, the network back); the rules hold for every script.
 */

/** How one call answers. */
type Answer = { kind: "ok"; progress: number[] } | { kind: "transient"; offline: boolean } | { kind: "refused"; status: number };
/** What the person (or the network) does just before a call answers. */
type Poke = SubmissionEvent | null;

const answer: fc.Arbitrary<Answer> = fc.oneof(
  fc.record({ kind: fc.constant("ok" as const), progress: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }) }),
  fc.record({ kind: fc.constant("transient" as const), offline: fc.boolean() }),
  fc.record({ kind: fc.constant("refused" as const), status: fc.constantFrom(400, 403, 404, 409, 413, 422, 500) }),
);
const poke = (files: number): fc.Arbitrary<Poke> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    fc.constant<Poke>({ type: "CANCEL" }),
    fc.constant<Poke>({ type: "FINISH" }),
    fc.constant<Poke>({ type: "RESUME" }),
    fc.integer({ min: 0, max: files - 1 }).map((i): Poke => ({ type: "CANCEL_FILE", id: `f${i}` })),
    fc.integer({ min: 0, max: files - 1 }).map((i): Poke => ({ type: "RETRY_FILE", id: `f${i}` })),
  );
const script = fc.integer({ min: 1, max: 5 }).chain((files) =>
  fc.record({
    files: fc.constant(files),
    byHand: fc.boolean(),
    maxAttempts: fc.integer({ min: 1, max: 4 }),
    steps: fc.array(fc.tuple(answer, poke(files)), { maxLength: 25 }),
  }),
);

class Refusal extends Error {
  constructor(readonly failure: SubmissionFailure) {
    super(failure.message);
  }
}

/** Runs one script to its end; answers the calls after it with success, and closes a dialog left waiting. */
const run = async ({ files: count, byHand, maxAttempts, steps }: { files: number; byHand: boolean; maxAttempts: number; steps: [Answer, Poke][] }) => {
  const files: SubmissionFile[] = Array.from({ length: count }, (_, i) => ({ id: `f${i}`, name: `f${i}.jpg`, size: 100 * (i + 1), content: i }));
  const log: string[] = [];
  // Checked inside the calls, where a thrown expectation would only read as a failed call.
  const violations: string[] = [];
  const must = (ok: boolean, what: string) => void (ok || violations.push(what));
  const reports: SubmissionReport[] = [];
  const progress: { id: string; loaded: number }[] = [];
  let next = 0;
  const queue = [...steps];
  const answerCall = async (call: string, signal: AbortSignal, onProgress?: (loaded: number) => void, size = 0) => {
    const [a, p] = queue.shift() ?? [{ kind: "ok", progress: [] } as Answer, null];
    next++;
    // Answered later, as a server would: the machine may move first.
    await Promise.resolve();
    if (p) actor.send(p);
    // Stopped meanwhile (cancelled): whatever the server says now is heard by nobody.
    if (signal.aborted) {
      log.push(`${call}:abandoned`);
      throw new Refusal({ message: "aborted", transient: false, offline: false });
    }
    if (a.kind === "ok") {
      for (const f of a.progress) onProgress?.(Math.round(f * size));
      log.push(`${call}:ok`);
      return;
    }
    log.push(`${call}:${a.kind}`);
    throw new Refusal(
      a.kind === "transient"
        ? { message: "busy", transient: transientStatus(a.offline ? 0 : 503, a.offline ? undefined : 1), offline: a.offline, retryAfterMs: 0 }
        : { message: `refused ${a.status}`, transient: transientStatus(a.status), offline: false },
    );
  };
  const machine = submissionMachine.provide({
    actors: submissionActors({
      prepare: async (signal) => {
        await answerCall("prepare", signal);
        return "rep-1";
      },
      upload: async (report, file, onProgress, signal) => {
        must(report === "rep-1", "upload to another report");
        must(actor.getSnapshot().context.progress.find((p) => p.id === file.id)?.state === "sending", `upload of ${file.id} while the machine does not send it`);
        await answerCall(`upload ${file.id}`, signal, (loaded) => {
          onProgress(loaded);
          progress.push({ id: file.id, loaded: actor.getSnapshot().context.progress.find((p) => p.id === file.id)!.loaded });
        }, file.size);
      },
      finalize: async (report, signal) => {
        must(report === "rep-1", "finalize of another report");
        // Finalize only once every file not left out is on the server.
        const states = actor.getSnapshot().context.progress.map((p) => p.state);
        must(states.every((s) => s === "sent" || s === "cancelled") && states.includes("sent"), `finalize with files ${states.join(",")}`);
        for (const p of actor.getSnapshot().context.progress.filter((q) => q.state === "sent")) must(log.includes(`upload ${p.id}:ok`), `finalize before ${p.id} was uploaded`);
        await answerCall("finalize", signal);
      },
      failure: (e) => (e instanceof Refusal ? e.failure : { message: String(e), transient: false, offline: false }),
    }),
    actions: { reported: (_, report) => void (report && reports.push(report)) },
    delays: { backoff: 0 },
  });
  const actor = createActor(machine, { input: { files, byHand, maxAttempts } });
  const states: string[] = [];
  actor.subscribe((s) => states.push(JSON.stringify(s.value)));
  actor.start();
  // A dialog waiting for the person after the script: they close it.
  for (let rounds = 0; actor.getSnapshot().status === "active" && rounds < 200; rounds++) {
    await new Promise((r) => setTimeout(r, 0));
    if (actor.getSnapshot().value === "attention") actor.send(queue.shift()?.[1] ?? { type: "CANCEL" });
  }
  const end = await waitFor(actor, (s) => s.status === "done", { timeout: 5_000 });
  expect(violations).toEqual([]);
  return { end, log, reports, progress, next, states };
};

describe("submissionMachine: properties", () => {
  test.prop([script], { numRuns: 150 })("every script ends in exactly one of done, failed or cancelled; finalize after every upload, at most once a round; retries bounded", async (s) => {
    const { end, log, reports } = await run(s);
    expect(["done", "failed", "cancelled"]).toContain(end.value);
    expect(end.output?.outcome).toBe(end.value);
    // Done only after a finalize that succeeded; failed and cancelled never after one.
    const finalized = log.filter((l) => l === "finalize:ok").length;
    expect(finalized).toBe(end.value === "done" ? 1 : 0);
    // A finalize is called again only after a failure of the one before (transient, or by hand on the portal).
    const finalizeCalls = log.filter((l) => l.startsWith("finalize:") && !l.endsWith(":abandoned"));
    for (let i = 0; i < finalizeCalls.length - 1; i++) expect(finalizeCalls[i]).not.toBe("finalize:ok");
    if (!s.byHand) expect(end.context.finalizeCalls).toBeLessThanOrEqual(1);
    // Bounded: no call is tried more than maxAttempts times in a row, and a refusal (a 4xx, a 500) never again by itself.
    if (!s.byHand) {
      // (On the portal the person may send a file again as often as they like.)
      let streak = 0;
      let last = "";
      for (const entry of log) {
        const [call, outcome] = entry.split(":") as [string, string];
        streak = call === last ? streak + 1 : 1;
        last = outcome === "ok" ? "" : call;
        expect(streak).toBeLessThanOrEqual(s.maxAttempts);
      }
      // A refusal ends the submission: nothing is called after it.
      const refused = log.findIndex((l) => l.endsWith(":refused"));
      if (refused >= 0) {
        expect(refused).toBe(log.length - 1);
        // (Unless a CANCEL came first: the refusal was then heard by nobody.)
        expect(["failed", "cancelled"]).toContain(end.value);
      }
    }
    // The parent hears the same ending (the kiosk's events), once.
    const endings = reports.filter((r) => r.type === "UPLOAD_SUCCEEDED" || r.type === "UPLOAD_FAILED");
    expect(endings).toEqual(end.value === "done" ? [{ type: "UPLOAD_SUCCEEDED" }] : end.value === "failed" ? [expect.objectContaining({ type: "UPLOAD_FAILED" })] : []);
    // Each file sent is reported once.
    const sent = reports.filter((r) => r.type === "FILE_SENT").map((r) => (r as { id: string }).id);
    expect(new Set(sent).size).toBe(sent.length);
  });

  test.prop([script], { numRuns: 100 })("progress never goes back: per file, and the files sent of those to send", async (s) => {
    const { progress, reports } = await run(s);
    const seen = new Map<string, number>();
    for (const { id, loaded } of progress) {
      expect(loaded).toBeGreaterThanOrEqual(seen.get(id) ?? 0);
      seen.set(id, loaded);
    }
    let sent = 0;
    for (const r of reports) {
      if (r.type !== "UPLOAD_PROGRESS") continue;
      // A file left out lowers the total, never the count sent.
      expect(r.progress.sent).toBeGreaterThanOrEqual(sent);
      expect(r.progress.sent).toBeLessThanOrEqual(r.progress.total);
      sent = r.progress.sent;
    }
  });
});
