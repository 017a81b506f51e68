import { assign, setup, transition } from "xstate";

/**
 * The report lifecycle of api-contract.md as one machine, and the one answer to every "may I?" about
 * a report (ADR 0042): use cases, the SQL of the review queue and the review console all ask `can`
 * or a predicate derived from it, never a list of statuses of their own. The server persists only
 * the state value (the `status` column) and the facts the guards read (photos of the round, the
 * round); every use case asks `nextReportStatus` before it writes, so no code path can skip a step
 * or publish without a reviewer. Plain (xstate only): the browser imports it too.
 */
export const REPORT_STATUSES = [
  "draft",
  "uploading",
  "submitted",
  "analyzing",
  "analyzed",
  "in_review",
  "published",
  "recapture_requested",
] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A prepared report, before its first file. */
export const INITIAL_REPORT_STATUS: ReportStatus = "draft";

/** What the guards need to know about the stored report. */
export interface ReportFacts {
  /** Photos (images, not videos) uploaded in the current round. */
  readonly photos: number;
  /** 1 for the first upload; a file stored after a recapture request starts the next round. */
  readonly round: number;
}

export type ReportEvent =
  /** A file of the current round was stored. */
  | { type: "FILE_STORED" }
  | { type: "FINALIZE" }
  /** The worker picked the analysis job. */
  | { type: "ANALYSIS_STARTED" }
  /** Measurements are recorded (even when none was accepted: the reasons go to review). */
  | { type: "ANALYSIS_FINISHED" }
  | { type: "REVIEW_STARTED"; reviewerId: string }
  | { type: "PUBLISH"; reviewerId: string | null }
  | { type: "REQUEST_RECAPTURE"; reviewerId: string | null }
  /** A reviewer reopens a published report to correct it; publishing again makes a new version. */
  | { type: "REOPEN"; reviewerId: string };

const hasReviewer = ({ event }: { event: ReportEvent }) => "reviewerId" in event && typeof event.reviewerId === "string" && event.reviewerId !== "";

export const reportMachine = setup({
  types: {} as { context: ReportFacts; events: ReportEvent; input: ReportFacts },
  guards: {
    hasPhoto: ({ context }) => context.photos > 0,
    hasReviewer,
  },
  actions: {
    // The retake after a recapture request is a new round: its photos are measured on their own.
    nextRound: assign({ round: ({ context }) => context.round + 1 }),
  },
}).createMachine({
  id: "report",
  context: ({ input }) => input,
  initial: INITIAL_REPORT_STATUS,
  states: {
    draft: { on: { FILE_STORED: "uploading" } },
    uploading: { on: { FILE_STORED: "uploading", FINALIZE: { guard: "hasPhoto", target: "submitted" } } },
    submitted: { on: { ANALYSIS_STARTED: "analyzing" } },
    // A retried job (after a crash) starts again from its last committed state.
    analyzing: { on: { ANALYSIS_STARTED: "analyzing", ANALYSIS_FINISHED: "analyzed" } },
    analyzed: {
      on: {
        REVIEW_STARTED: { guard: "hasReviewer", target: "in_review" },
        REQUEST_RECAPTURE: { guard: "hasReviewer", target: "recapture_requested" },
      },
    },
    in_review: {
      on: {
        REVIEW_STARTED: { guard: "hasReviewer", target: "in_review" },
        PUBLISH: { guard: "hasReviewer", target: "published" },
        REQUEST_RECAPTURE: { guard: "hasReviewer", target: "recapture_requested" },
      },
    },
    published: { on: { REOPEN: { guard: "hasReviewer", target: "in_review" } } },
    // The user uploads again to the same report: a new round.
    recapture_requested: { on: { FILE_STORED: { target: "uploading", actions: "nextRound" } } },
  },
});

const snapshotOf = (status: ReportStatus, facts: ReportFacts) => reportMachine.resolveState({ value: status, context: facts });

/** Whether the event is allowed now. Pure. */
export const can = (status: ReportStatus, facts: ReportFacts, event: ReportEvent): boolean => snapshotOf(status, facts).can(event);

/** The status and facts after an event, or null when the event is not allowed now. Pure. */
export const transitionReport = (status: ReportStatus, facts: ReportFacts, event: ReportEvent): { status: ReportStatus; facts: ReportFacts } | null => {
  const snapshot = snapshotOf(status, facts);
  if (!snapshot.can(event)) return null;
  const [next] = transition(reportMachine, snapshot, event);
  return { status: next.value as ReportStatus, facts: next.context };
};

/** The next status for an event, or null when the event is not allowed now. Pure. */
export const nextReportStatus = (current: ReportStatus, facts: ReportFacts, event: ReportEvent): ReportStatus | null =>
  transitionReport(current, facts, event)?.status ?? null;

// ---- The "may I?" predicates, each one question to the machine -----------------------------------

/** Facts that no guard of the asked event reads. */
const ANY_FACTS: ReportFacts = { photos: 0, round: 1 };
/** Stands for the caller, who is a reviewer wherever the questions below need one. */
const A_REVIEWER = "reviewer";

/** Files may still be added: can store a file (a retake after a recapture request starts a new round). */
export const acceptsFiles = (status: ReportStatus) => can(status, ANY_FACTS, { type: "FILE_STORED" });
/** Waiting for a reviewer: can start (or go on with) the review, and so decide photos, note, publish or ask for a recapture. */
export const reviewable = (status: ReportStatus) => can(status, ANY_FACTS, { type: "REVIEW_STARTED", reviewerId: A_REVIEWER });
/** Published, so a reviewer can reopen it to correct it. */
export const reopenable = (status: ReportStatus) => can(status, ANY_FACTS, { type: "REOPEN", reviewerId: A_REVIEWER });
/** Its analysis job may (re)start: submitted, or analyzing after a crash. */
export const awaitsAnalysis = (status: ReportStatus) => can(status, ANY_FACTS, { type: "ANALYSIS_STARTED" });
/** Its analysis is under way and may finish. */
export const analysing = (status: ReportStatus) => can(status, ANY_FACTS, { type: "ANALYSIS_FINISHED" });
/** The family and the practice see its figures. */
export const isPublished = (status: ReportStatus) => status === "published";
/** The user was asked to capture again (and told why). */
export const awaitsRecapture = (status: ReportStatus) => status === "recapture_requested";

/** Sent and not answered yet: the family waits for a result or a request to capture again (analysis, then review). */
export const awaitsResult = (status: ReportStatus) => awaitsAnalysis(status) || analysing(status) || reviewable(status);

/** The round the next stored file belongs to: the machine's context after FILE_STORED. */
export const roundForFiles = (status: ReportStatus, round: number) => transitionReport(status, { photos: 0, round }, { type: "FILE_STORED" })?.facts.round ?? round;

/** The statuses a predicate holds for, e.g. for a query: `statusesWhere(reviewable)`. */
export const statusesWhere = (holds: (status: ReportStatus) => boolean): ReadonlyArray<ReportStatus> => REPORT_STATUSES.filter(holds);
