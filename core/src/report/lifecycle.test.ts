import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths, getSimplePaths, toDirectedGraph } from "xstate/graph";
import { nextReportStatus, REPORT_STATUSES, type ReportEvent, reportMachine, type ReportStatus } from "./lifecycle.ts";

/** Every event, with and without a reviewer where it carries one. */
const EVENTS: ReadonlyArray<ReportEvent> = [
  { type: "FILE_STORED" },
  { type: "FINALIZE" },
  { type: "ANALYSIS_STARTED" },
  { type: "ANALYSIS_FINISHED" },
  { type: "REVIEW_STARTED", reviewerId: "reviewer-1" },
  { type: "REVIEW_STARTED", reviewerId: "" },
  { type: "PUBLISH", reviewerId: "reviewer-1" },
  { type: "PUBLISH", reviewerId: null },
  { type: "REQUEST_RECAPTURE", reviewerId: "reviewer-1" },
  { type: "REQUEST_RECAPTURE", reviewerId: null },
  { type: "REOPEN", reviewerId: "reviewer-1" },
  { type: "REOPEN", reviewerId: "" },
];
const withPhotos = { photos: 3, round: 1 };
/** States are told apart by status: the round only counts retakes (each recapture adds one), so it would make the graph endless. */
const byStatus = { serializeState: (state: { value: unknown }) => String(state.value) };
const edgeKey = (source: string, event: string, target: string) => `${source} --${event}--> ${target}`;

describe("report lifecycle: model-based coverage with xstate/graph", () => {
  it("has exactly the statuses of the api contract", () => {
    expect(Object.keys(reportMachine.root.states).sort()).toEqual([...REPORT_STATUSES].sort());
  });

  it("reaches every status, each by the shortest path the contract describes", () => {
    const paths = new Map(getShortestPaths(reportMachine, { input: withPhotos, events: EVENTS, ...byStatus }).map((p) => [String(p.state.value), p.steps.slice(1).map((s) => s.event.type)]));
    expect([...paths.keys()].sort()).toEqual([...REPORT_STATUSES].sort());
    expect(paths.get("published")).toEqual(["FILE_STORED", "FINALIZE", "ANALYSIS_STARTED", "ANALYSIS_FINISHED", "REVIEW_STARTED", "PUBLISH"]);
    expect(paths.get("recapture_requested")).toEqual(["FILE_STORED", "FINALIZE", "ANALYSIS_STARTED", "ANALYSIS_FINISHED", "REQUEST_RECAPTURE"]);
  });

  it("without a photo a report never gets past uploading", () => {
    const reached = new Set(getShortestPaths(reportMachine, { input: { photos: 0, round: 1 }, events: EVENTS, ...byStatus }).map((p) => String(p.state.value)));
    expect([...reached].sort()).toEqual(["draft", "uploading"]);
  });

  it("takes every transition of the definition, and no other", () => {
    const root = toDirectedGraph(reportMachine);
    const defined = new Set(root.children.flatMap((n) => n.edges.map((e) => edgeKey(e.source.key, e.label.text, e.target.key))));
    const taken = new Set(
      adjacencyMapToArray(getAdjacencyMap(reportMachine, { input: withPhotos, events: EVENTS, ...byStatus }))
        .filter(({ state, event }) => state.can(event))
        .map(({ state, event, nextState }) => edgeKey(String(state.value), event.type, String(nextState.value))),
    );
    expect([...defined].filter((k) => !taken.has(k))).toEqual([]);
    expect([...taken].filter((k) => !defined.has(k))).toEqual([]);
  });

  it("agrees with nextReportStatus, from the persisted status alone, on every step of every simple path", () => {
    let steps = 0;
    const paths = getSimplePaths(reportMachine, { input: withPhotos, events: EVENTS, ...byStatus });
    expect(paths.length).toBeGreaterThan(8);
    for (const path of paths) {
      let status: ReportStatus = "draft";
      for (const step of path.steps.slice(1)) {
        const next = nextReportStatus(status, withPhotos, step.event);
        expect(next).toBe(step.state.value);
        status = next!;
        steps++;
      }
      // Every path that ends published went through review with a reviewer.
      if (status === "published") {
        const events = path.steps.map((s) => s.event);
        expect(events.some((e) => e.type === "PUBLISH" && e.reviewerId)).toBe(true);
        expect(events.map((e) => e.type)).toContain("REVIEW_STARTED");
      }
    }
    expect(steps).toBeGreaterThan(20);
  });
});

describe("report lifecycle: properties", () => {
  test.prop([fc.array(fc.constantFrom(...EVENTS), { maxLength: 40 }), fc.integer({ min: 0, max: 3 })])(
    "no sequence of events ever publishes a report without a reviewer, or from anywhere but review",
    (events, photos) => {
      let status: ReportStatus = "draft";
      for (const event of events) {
        const next = nextReportStatus(status, { photos, round: 1 }, event);
        if (next === null) continue;
        if (next === "published" && status !== "published") {
          expect(event.type).toBe("PUBLISH");
          expect("reviewerId" in event ? event.reviewerId : null).toMatch(/.+/);
          expect(status).toBe("in_review");
        }
        if (status === "draft" || status === "uploading") {
          if (next === "submitted") expect(photos).toBeGreaterThan(0);
        }
        status = next;
      }
    },
  );
});
