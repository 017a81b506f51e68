import { setup, transition } from "xstate";

/**
 * The report lifecycle of api-contract.md as one machine. The server persists only the state value
 * (the `status` column) and the few facts the guards read; every use case asks `nextReportStatus`
 * before it writes, so no code path can skip a step or publish without a reviewer.
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

/** What the guards need to know about the stored report. */
export interface ReportFacts {
  /** Photos (images, not videos) uploaded in the current round. */
  readonly photos: number;
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
}).createMachine({
  id: "report",
  context: ({ input }) => input,
  initial: "draft",
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
    recapture_requested: { on: { FILE_STORED: "uploading" } },
  },
});

/** The next status for an event, or null when the event is not allowed now. Pure. */
export const nextReportStatus = (current: ReportStatus, facts: ReportFacts, event: ReportEvent): ReportStatus | null => {
  const snapshot = reportMachine.resolveState({ value: current, context: facts });
  if (!snapshot.can(event)) return null;
  const [next] = transition(reportMachine, snapshot, event);
  return next.value as ReportStatus;
};

/** Statuses in which files may still be added (a retake after a recapture request starts a new round). */
export const acceptsFiles = (status: ReportStatus) => status === "draft" || status === "uploading" || status === "recapture_requested";
