import { and, assign, fromPromise, not, setup, stateIn } from "xstate";

/**
 * One submission of files as a report (capture-and-reporting.md §4, api-contract.md "Reports";
 * docs/adr/0161-one-submission-machine.md): prepare (the report's identifier), upload each file with
 * its progress, finalize once every file not cancelled is on the server; a call that failed for a
 * passing reason (nothing answered, or the server asked to come back) is tried again a bounded
 * number of times, a refusal (any other answer, a 4xx above all) never. The portal's upload dialog
 * runs it on its own; the kiosk machine invokes it as a child and hears its reports.
 *
 * No fetch here: the three calls are actors the app provides (`submissionActors(ports)` builds them
 * from plain async functions), so the machine runs headless in tests. Stopping it (CANCEL, or the
 * parent leaving) aborts the call in flight; a prepared report that is never finalized stays
 * `draft`/`uploading`, which the report lifecycle never analyses nor sends for review.
 */

import { DEFAULT_MAX_ATTEMPTS, backoffMs, failureOfAnswer, transientStatus, type FileProgress, type FileState, type SubmissionContext, type SubmissionEvent, type SubmissionFailure, type SubmissionFile, type SubmissionInput, type SubmissionOutcome, type SubmissionOutput, type SubmissionPorts, type SubmissionReport, type SubmissionStep, type UploadProgress } from "./submission-model.ts";
export * from "./submission-model.ts";

interface UploadArgs {
  readonly reportIdentifier: string;
  readonly file: SubmissionFile;
  readonly onProgress: (loaded: number) => void;
}

/** A rejection as the machine reads it: the port's own reading, carried through xstate's error event. */
class Failed extends Error {
  constructor(readonly failure: SubmissionFailure) {
    super(failure.message);
  }
}
const readFailure = (error: unknown): SubmissionFailure =>
  error instanceof Failed ? error.failure : { message: error instanceof Error ? error.message : String(error), transient: false, offline: false };

/** The app's calls as the machine's actors: `submissionMachine.provide({ actors: submissionActors(ports) })`. */
export const submissionActors = (ports: SubmissionPorts) => {
  const read = (error: unknown) => new Failed(ports.failure(error));
  return {
    prepare: fromPromise<string, void>(({ signal }) => ports.prepare(signal).catch((e: unknown) => Promise.reject(read(e)))),
    upload: fromPromise<void, UploadArgs>(({ input, signal }) => ports.upload(input.reportIdentifier, input.file, input.onProgress, signal).catch((e: unknown) => Promise.reject(read(e)))),
    finalize: fromPromise<void, { reportIdentifier: string }>(({ input, signal }) => ports.finalize(input.reportIdentifier, signal).catch((e: unknown) => Promise.reject(read(e)))),
  };
};

const notProvided = (call: string) => new Failed({ message: `submission: the app did not provide \`${call}\``, transient: false, offline: false });

const patch = (context: SubmissionContext, id: string, change: (p: FileProgress) => FileProgress) => context.progress.map((p) => (p.id === id ? change(p) : p));
const stateOf = (context: SubmissionContext, id: string) => context.progress.find((p) => p.id === id)?.state;
const sizeOf = (context: SubmissionContext, id: string) => context.files.find((f) => f.id === id)?.size ?? 0;

/** Files sent, of the files not cancelled, and the step: what a progress bar shows. */
export const progressOf = (context: SubmissionContext, step: SubmissionStep): UploadProgress => {
  const live = context.progress.filter((p) => p.state !== "cancelled");
  return { step, sent: live.filter((p) => p.state === "sent").length, total: live.length, reportIdentifier: context.reportIdentifier };
};

/** Bytes (or units) sent and to send, of the files not cancelled. */
export const bytesOf = (context: SubmissionContext) => {
  const live = context.progress.filter((p) => p.state !== "cancelled");
  return { loaded: live.reduce((n, p) => n + p.loaded, 0), total: live.reduce((n, p) => n + sizeOf(context, p.id), 0) };
};

const submissionSetup = setup({
  types: {} as { context: SubmissionContext; events: SubmissionEvent; input: SubmissionInput; output: SubmissionOutput },
  actors: {
    // The app provides these (submissionActors); unprovided, the first call fails, loudly.
    prepare: fromPromise<string, void>(() => Promise.reject(notProvided("prepare"))),
    upload: fromPromise<void, UploadArgs>(() => Promise.reject(notProvided("upload"))),
    finalize: fromPromise<void, { reportIdentifier: string }>(() => Promise.reject(notProvided("finalize"))),
  },
  delays: {
    backoff: ({ context }) => backoffMs(context.attempts, context.error),
  },
  guards: {
    prepared: ({ context }) => context.reportIdentifier !== null,
    hasQueued: ({ context }) => context.progress.some((p) => p.state === "queued"),
    anyFailed: ({ context }) => context.progress.some((p) => p.state === "failed"),
    anySent: ({ context }) => context.progress.some((p) => p.state === "sent"),
    byHand: ({ context }) => context.byHand,
    /** The failure just heard is transient and the call has tries left. */
    triesLeft: ({ context, event }) => "error" in event && readFailure(event.error).transient && context.attempts < context.maxAttempts,
    isCurrent: ({ context, event }) => "id" in event && event.id === context.current,
    /** A file that failed or was left out may be sent again. */
    retryable: ({ context, event }) => "id" in event && ["failed", "cancelled"].includes(stateOf(context, event.id) ?? ""),
    /** Every file is sent or left out, and one at least is sent: finalize may be called. */
    settled: ({ context }) => context.progress.every((p) => p.state === "sent" || p.state === "cancelled") && context.progress.some((p) => p.state === "sent"),
  },
  actions: {
    /** Hook for a parent: the kiosk sends each report to itself (sendParent); null: nothing to report. */
    reported: (_, _report: SubmissionReport | null) => undefined,
    failedCall: assign(({ context, event }) => ({ error: "error" in event ? readFailure(event.error) : context.error })),
    triedAgain: assign({ attempts: ({ context }) => context.attempts + 1 }),
    picked: assign(({ context }) => {
      const id = context.progress.find((p) => p.state === "queued")!.id;
      return { current: id, attempts: 1, progress: patch(context, id, (p) => ({ ...p, state: "sending", error: null })) };
    }),
    progressed: assign(({ context, event }) =>
      event.type === "FILE_PROGRESS" ? { progress: patch(context, event.id, (p) => ({ ...p, loaded: Math.max(p.loaded, Math.min(sizeOf(context, p.id), event.loaded)) })) } : {},
    ),
    fileSent: assign(({ context }) => ({
      attempts: 1,
      error: null,
      progress: patch(context, context.current!, (p) => ({ ...p, state: "sent", loaded: sizeOf(context, p.id), error: null })),
      current: null,
    })),
    fileFailed: assign(({ context }) => ({
      progress: patch(context, context.current!, (p) => ({ ...p, state: "failed", error: context.error?.message ?? null })),
      current: null,
    })),
    leftOut: assign(({ context, event }) => {
      const id = "id" in event ? event.id : null;
      if (id === null) return {};
      return { progress: patch(context, id, (p) => ({ ...p, state: "cancelled" })), current: context.current === id ? null : context.current };
    }),
    requeued: assign(({ context, event }) => ("id" in event ? { progress: patch(context, event.id, (p) => ({ ...p, state: "queued", error: null })) } : {})),
    ended: assign((_, outcome: SubmissionOutcome) => ({ outcome, current: null })),
  },
});

/** A call that nothing answered tells the parent the network is down (the kiosk says so on screen). */
const reportOffline = {
  type: "reported",
  params: ({ context }: { context: SubmissionContext }): SubmissionReport | null => (context.error?.offline ? { type: "NETWORK_DOWN" } : null),
} as const;

export const submissionMachine = submissionSetup.createMachine({
  id: "submission",
  context: ({ input }) => ({
    files: input.files,
    progress: input.files.map((f) => ({ id: f.id, state: "queued" as const, loaded: 0, error: null })),
    reportIdentifier: input.reportIdentifier ?? null,
    current: null,
    attempts: 1,
    maxAttempts: Math.max(1, input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS),
    byHand: input.byHand ?? false,
    error: null,
    finalizeCalls: 0,
    outcome: null,
  }),
  initial: "starting",
  on: {
    // Finalizing is not cut: the server may already have it, and a half-known report is worse than a finished one.
    CANCEL: { guard: not(stateIn("finalizing")), target: ".cancelled" },
  },
  states: {
    starting: { always: [{ guard: "prepared", target: "sending" }, { target: "preparingReport" }] },
    preparingReport: {
      entry: { type: "reported", params: ({ context }) => ({ type: "UPLOAD_PROGRESS", progress: progressOf(context, "prepare") }) },
      invoke: {
        src: "prepare",
        onDone: { target: "sending", actions: assign({ reportIdentifier: ({ event }) => event.output, attempts: 1, error: null }) },
        onError: [
          { guard: "triesLeft", target: "preparingAgain", actions: ["failedCall", "triedAgain", reportOffline] },
          { target: "failed", actions: "failedCall" },
        ],
      },
    },
    preparingAgain: { after: { backoff: "preparingReport" }, on: { RESUME: "preparingReport" } },
    sending: {
      initial: "next",
      on: {
        // A file not in flight is left out at once; the one in flight is handled in `file` (its request aborted).
        CANCEL_FILE: { guard: ({ context, event }) => event.id !== context.current && ["queued", "failed"].includes(stateOf(context, event.id) ?? ""), actions: "leftOut" },
        RETRY_FILE: { guard: and(["byHand", "retryable"]), actions: "requeued" },
      },
      states: {
        next: {
          always: [
            { guard: "hasQueued", target: "file", actions: "picked" },
            { guard: "settled", target: "#submission.finalizing" },
            { guard: "byHand", target: "#submission.attention" },
            { target: "#submission.failed" },
          ],
        },
        file: {
          entry: { type: "reported", params: ({ context }) => ({ type: "UPLOAD_PROGRESS", progress: progressOf(context, "upload") }) },
          invoke: {
            src: "upload",
            input: ({ context, self }) => {
              const file = context.files.find((f) => f.id === context.current)!;
              return { reportIdentifier: context.reportIdentifier!, file, onProgress: (loaded: number) => self.send({ type: "FILE_PROGRESS", id: file.id, loaded }) };
            },
            onDone: { target: "next", actions: [{ type: "reported", params: ({ context }) => ({ type: "FILE_SENT", id: context.current! }) }, "fileSent"] },
            onError: [
              { guard: "triesLeft", target: "fileAgain", actions: ["failedCall", "triedAgain", reportOffline] },
              { guard: "byHand", target: "next", actions: ["failedCall", "fileFailed"] },
              // Nobody to ask (the kiosk): the submission fails, and its parent shows why.
              { target: "#submission.failed", actions: ["failedCall", "fileFailed"] },
            ],
          },
          on: {
            FILE_PROGRESS: { guard: "isCurrent", actions: "progressed" },
            CANCEL_FILE: { guard: "isCurrent", target: "next", actions: "leftOut" },
          },
        },
        fileAgain: {
          after: { backoff: "file" },
          on: { RESUME: "file", CANCEL_FILE: { guard: "isCurrent", target: "next", actions: "leftOut" } },
        },
      },
    },
    finalizing: {
      entry: [
        assign({ finalizeCalls: ({ context }) => context.finalizeCalls + 1, current: null }),
        { type: "reported", params: ({ context }) => ({ type: "UPLOAD_PROGRESS", progress: progressOf(context, "finalize") }) },
      ],
      invoke: {
        src: "finalize",
        input: ({ context }) => ({ reportIdentifier: context.reportIdentifier! }),
        onDone: { target: "done" },
        onError: [
          { guard: "triesLeft", target: "finalizingAgain", actions: ["failedCall", "triedAgain", reportOffline] },
          { guard: "byHand", target: "attention", actions: "failedCall" },
          { target: "failed", actions: "failedCall" },
        ],
      },
    },
    finalizingAgain: {
      // Counted once: trying again is the same finalize, idempotent on the server (api-contract.md).
      entry: assign({ finalizeCalls: ({ context }) => context.finalizeCalls - 1 }),
      after: { backoff: "finalizing" },
      on: { RESUME: "finalizing" },
    },
    /** The portal's: some file failed (or finalize did); the person retries, removes, finishes or closes. */
    attention: {
      entry: assign({ current: null }),
      on: {
        RETRY_FILE: { guard: "retryable", target: "sending", actions: "requeued" },
        CANCEL_FILE: { guard: ({ context, event }) => ["queued", "failed"].includes(stateOf(context, event.id) ?? ""), actions: "leftOut" },
        FINISH: { guard: and(["settled", "prepared"]), target: "finalizing" },
      },
    },
    done: { type: "final", entry: [{ type: "ended", params: "done" }, { type: "reported", params: { type: "UPLOAD_SUCCEEDED" } }] },
    failed: {
      type: "final",
      entry: [{ type: "ended", params: "failed" }, { type: "reported", params: ({ context }) => ({ type: "UPLOAD_FAILED", message: context.error?.message ?? "" }) }],
    },
    cancelled: { type: "final", entry: { type: "ended", params: "cancelled" } },
  },
  output: ({ context }) => ({ outcome: context.outcome ?? "failed", reportIdentifier: context.reportIdentifier, error: context.error?.message ?? null }),
});
