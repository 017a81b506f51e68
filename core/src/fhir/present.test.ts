import { describe, expect, test } from "vitest";
import { aBaby } from "../testing/babies.ts";
import { CODES, MEASURES } from "./codes.ts";
import { presentObservations, presentSearchSet, publishedStatus } from "./present.ts";
import type { PublishedRecord } from "./records.ts";

const spread = (median: number) => ({ median, min: median - 0.5, max: median + 0.5, count: 3 });
type Figures = Partial<Record<"ci" | "cvai" | "cva_mm", ReturnType<typeof spread> | null>> & { models?: ReadonlyArray<{ name: string; version: string }> };
const record = (summary: Figures, version = 1): PublishedRecord =>
  ({
    report: { id: "01REPORT000000000000000000", status: "published", reviewNote: null, submittedAt: new Date("2026-09-01T10:00:00Z"), createdAt: new Date("2026-09-01T09:00:00Z") },
    baby: aBaby({ id: "01BABY0000000000000000000", firstName: "Noa", lastName: "Rivera", createdBy: "x", parentId: null, physicianId: null, dateOfBirth: "2026-06-01" }),
    version: { version, publishedAt: new Date("2026-09-02T10:00:00Z"), summary: { accepted: 3, measured: 3, problems: [], ci: null, cvai: null, cva_mm: null, ...summary } },
    physician: null,
    reviewer: null,
  }) as unknown as PublishedRecord;

describe("FHIR presentation of a published report", () => {
  test("a CVAI on a band's lower bound is in the higher band (as in the PDF), abnormal from level 2", () => {
    const [, cvai] = presentObservations(record({ cvai: spread(3.5) }));
    expect(cvai!.interpretation).toMatchObject([{ coding: [CODES.abnormal, { code: "cvai-level-2" }], text: "Level 2 (mild)" }]);
    const [, normal] = presentObservations(record({ cvai: spread(3.49) }));
    expect(normal!.interpretation).toMatchObject([{ coding: [CODES.normal, { code: "cvai-level-1" }] }]);
  });

  test("a typical CI is normal; a measure not taken is there with a reason, never a made-up value", () => {
    const [ci, , cva] = presentObservations(record({ ci: spread(82) }));
    expect(ci!.interpretation).toMatchObject([{ coding: [CODES.normal, { code: "ci-typical" }] }]);
    expect(ci!.valueQuantity).toEqual({ value: 82, unit: "1", system: "http://unitsofmeasure.org", code: "1" });
    expect(cva!.valueQuantity).toBeUndefined();
    expect(cva!.dataAbsentReason).toMatchObject({ coding: [CODES.notPerformed] });
    expect(cva!.interpretation).toBeUndefined();
    expect(MEASURES.map((m) => m.unit.code)).toEqual(["1", "1", "mm"]);
  });

  test("the device is the model recorded when the photos were measured, and absent where that is unknown", () => {
    const measuredBy = presentObservations(record({ ci: spread(82), models: [{ name: "Crown head-contour model", version: "0.4.0" }] }));
    expect(measuredBy.map((o) => o.device)).toEqual(Array(3).fill({ display: "Crown head-contour model 0.4.0" }));
    // Photos of one report measured by two models (re-analysed across an upgrade): both named.
    const [mixed] = presentObservations(record({ ci: spread(82), models: [{ name: "m", version: "1" }, { name: "m", version: "2" }] }));
    expect(mixed!.device).toEqual({ display: "m 1, m 2" });
    // Published before models were recorded: no device, rather than the model installed today.
    for (const old of [record({ ci: spread(82) }), record({ ci: spread(82), models: [] })]) {
      expect(presentObservations(old).every((o) => !("device" in o))).toBe(true);
    }
  });

  test("version 1 is final, a republished version amended", () => {
    expect(publishedStatus(1)).toBe("final");
    expect(publishedStatus(2)).toBe("amended");
    expect(presentObservations(record({}, 3))[0]!.status).toBe("amended");
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
