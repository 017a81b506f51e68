import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  acceptsFiles,
  analysing,
  awaitsAnalysis,
  nextReportStatus,
  reopenable,
  REPORT_STATUSES,
  type ReportEvent,
  reportMachine,
  reviewable,
  roundForFiles,
  statusesWhere,
} from "./lifecycle.ts";

/** The machine itself, asked directly: the predicates must never answer otherwise. */
const machineCan = (status: (typeof REPORT_STATUSES)[number], facts: { photos: number; round: number }, event: ReportEvent) =>
  reportMachine.resolveState({ value: status, context: facts }).can(event);

const status = fc.constantFrom(...REPORT_STATUSES);
const facts = fc.record({ photos: fc.integer({ min: 0, max: 20 }), round: fc.integer({ min: 1, max: 50 }) });
const reviewer = fc.string({ minLength: 1, maxLength: 26 });

describe("report lifecycle: the may-I predicates agree with the machine", () => {
  test.prop([status, facts])("acceptsFiles is exactly: the machine can store a file", (s, f) => {
    expect(acceptsFiles(s)).toBe(machineCan(s, f, { type: "FILE_STORED" }));
  });

  test.prop([status, facts, reviewer])("reviewable is exactly: the machine can start (or go on with) a review", (s, f, id) => {
    expect(reviewable(s)).toBe(machineCan(s, f, { type: "REVIEW_STARTED", reviewerId: id }));
  });

  test.prop([status, facts, reviewer])("every status a reviewer can publish or ask a recapture from is reviewable, and only those", (s, f, id) => {
    const decides = machineCan(s, f, { type: "PUBLISH", reviewerId: id }) || machineCan(s, f, { type: "REQUEST_RECAPTURE", reviewerId: id });
    expect(decides).toBe(reviewable(s));
  });

  test.prop([status, facts, reviewer])("a reviewable report with a counted photo can be published after its review starts", (s, f, id) => {
    fc.pre(reviewable(s));
    const inReview = nextReportStatus(s, f, { type: "REVIEW_STARTED", reviewerId: id });
    expect(inReview).not.toBeNull();
    expect(nextReportStatus(inReview!, f, { type: "PUBLISH", reviewerId: id })).toBe("published");
  });

  test.prop([status, facts, reviewer])("reopenable, awaitsAnalysis and analysing are the machine's REOPEN, ANALYSIS_STARTED and ANALYSIS_FINISHED", (s, f, id) => {
    expect(reopenable(s)).toBe(machineCan(s, f, { type: "REOPEN", reviewerId: id }));
    expect(awaitsAnalysis(s)).toBe(machineCan(s, f, { type: "ANALYSIS_STARTED" }));
    expect(analysing(s)).toBe(machineCan(s, f, { type: "ANALYSIS_FINISHED" }));
  });

  test.prop([status, facts, reviewer])("a file stored after a recapture request starts the next round; any other file stays in its round", (s, f, id) => {
    const next = roundForFiles(s, f.round);
    const askedAgain = REPORT_STATUSES.some((from) => nextReportStatus(from, f, { type: "REQUEST_RECAPTURE", reviewerId: id }) === s);
    expect(next).toBe(askedAgain ? f.round + 1 : f.round);
  });

  it("the lists a query or a screen needs are the machine's: review queue, open for files", () => {
    expect(statusesWhere(reviewable)).toEqual(["analyzed", "in_review"]);
    expect(statusesWhere(acceptsFiles)).toEqual(["draft", "uploading", "recapture_requested"]);
  });
});
