import { describe, expect, test } from "vitest";
import { aBaby } from "../testing/babies.ts";
import { CODES, MEASURES } from "./codes.ts";
import { presentObservations, presentSearchSet, publishedStatus } from "./present.ts";
import type { PublishedRecord } from "./records.ts";

const spread = (median: number) => ({ median, min: median - 0.5, max: median + 0.5, count: 3 });
const record = (summary: Partial<Record<"ci" | "cvai" | "cva_mm", ReturnType<typeof spread> | null>>, version = 1): PublishedRecord =>
  ({
    report: { id: "01REPORT000000000000000000", status: "published", reviewNote: null, submittedAt: new Date("2026-09-01T10:00:00Z"), createdAt: new Date("2026-09-01T09:00:00Z") },
    baby: aBaby({ id: "01BABY0000000000000000000", firstName: "Noa", lastName: "Rivera", createdBy: "x", parentId: null, physicianId: null, dateOfBirth: "2026-06-01" }),
    version: { version, publishedAt: new Date("2026-09-02T10:00:00Z"), summary: { accepted: 3, measured: 3, problems: [], ci: null, cvai: null, cva_mm: null, ...summary } },
    physician: null,
    reviewer: null,
  }) as unknown as PublishedRecord;

describe("FHIR presentation of a published report", () => {
  test("a CVAI on a band's lower bound is in the higher band (as in the PDF), abnormal from level 2", () => {
    const [, cvai] = presentObservations(record({ cvai: spread(3.5) }), null);
    expect(cvai!.interpretation).toMatchObject([{ coding: [CODES.abnormal, { code: "cvai-level-2" }], text: "Level 2 (mild)" }]);
    const [, normal] = presentObservations(record({ cvai: spread(3.49) }), null);
    expect(normal!.interpretation).toMatchObject([{ coding: [CODES.normal, { code: "cvai-level-1" }] }]);
  });

  test("a typical CI is normal; a measure not taken is there with a reason, never a made-up value", () => {
    const [ci, , cva] = presentObservations(record({ ci: spread(82) }), { name: "m", version: "1.0.0" });
    expect(ci!.interpretation).toMatchObject([{ coding: [CODES.normal, { code: "ci-typical" }] }]);
    expect(ci!.valueQuantity).toEqual({ value: 82, unit: "1", system: "http://unitsofmeasure.org", code: "1" });
    expect(ci!.device).toEqual({ display: "m 1.0.0" });
    expect(cva!.valueQuantity).toBeUndefined();
    expect(cva!.dataAbsentReason).toMatchObject({ coding: [CODES.notPerformed] });
    expect(cva!.interpretation).toBeUndefined();
    expect(MEASURES.map((m) => m.unit.code)).toEqual(["1", "1", "mm"]);
  });

  test("version 1 is final, a republished version amended", () => {
    expect(publishedStatus(1)).toBe("final");
    expect(publishedStatus(2)).toBe("amended");
    expect(presentObservations(record({}, 3), null)[0]!.status).toBe("amended");
  });

  test("search pages link previous and next only where there is one", () => {
    const rels = (offset: number, total: number) =>
      (presentSearchSet("http://x/fhir/R4", [], { total, self: "http://x/fhir/R4/Observation?subject=Patient/1", offset, count: 4 }).link as Array<{ relation: string; url: string }>).map((l) => l.relation);
    expect(rels(0, 9)).toEqual(["self", "first", "next", "last"]);
    expect(rels(4, 9)).toEqual(["self", "first", "previous", "next", "last"]);
    expect(rels(8, 9)).toEqual(["self", "first", "previous", "last"]);
    expect(rels(0, 0)).toEqual(["self", "first", "last"]);
  });
});
