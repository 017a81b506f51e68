import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { addMonths, dayOf, formatDay, parseDay, startOfDay } from "../shared/days.ts";
import { SCAN_MONTHS, scanDue, scansEnd } from "./reminders.ts";

const baby = (dateOfBirth: string) => ({ id: "b1", name: "Bo Baby", dateOfBirth });
const day = (s: string) => parseDay(s)!;

describe("scanDue", () => {
  it("is due from birth, once per month of age, until month 7", () => {
    expect(scanDue(baby("2026-01-31"), null, day("2026-01-31"))).toMatchObject({ month: 1, dueSince: "2026-01-31", nextDue: "2026-02-28" });
    expect(scanDue(baby("2026-01-31"), null, day("2026-03-01"))).toMatchObject({ month: 2, dueSince: "2026-02-28" });
    expect(scanDue(baby("2026-01-15"), null, day("2026-08-14"))).toMatchObject({ month: 7, dueSince: "2026-07-15", nextDue: "2026-08-15" });
    expect(scanDue(baby("2026-01-15"), null, day("2026-08-15"))).toBeNull();
    expect(scanDue(baby("2026-05-01"), null, day("2026-04-30"))).toBeNull();
  });

  it("is not due once this month of age has an upload", () => {
    expect(scanDue(baby("2026-01-15"), new Date("2026-03-15T00:00:00Z"), day("2026-03-20"))).toBeNull();
    expect(scanDue(baby("2026-01-15"), new Date("2026-03-14T23:59:00Z"), day("2026-03-20"))).toMatchObject({ month: 3 });
  });
});

const arbDay = fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true }).map(dayOf);

describe("reminders: properties", () => {
  test.prop([arbDay, arbDay, fc.option(fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2031-12-31T00:00:00Z"), noInvalidDate: true }))])(
    "a scan never falls due after month 7 from the date of birth, nor before birth",
    (birth, today, lastUpload) => {
      const due = scanDue(baby(formatDay(birth)), lastUpload, today);
      if (due === null) return;
      const end = scansEnd(formatDay(birth))!;
      expect(startOfDay(today).getTime()).toBeLessThan(end.getTime());
      expect(startOfDay(today).getTime()).toBeGreaterThanOrEqual(startOfDay(birth).getTime());
      expect(due.month).toBeGreaterThanOrEqual(1);
      expect(due.month).toBeLessThanOrEqual(SCAN_MONTHS);
      // ...and never while this month of age already has an upload.
      if (lastUpload) expect(lastUpload.getTime()).toBeLessThan(startOfDay(day(due.dueSince)).getTime());
    },
  );

  test.prop([arbDay])("with no upload, a scan is due on every day of the first 7 months", (birth) => {
    for (let m = 0; m < SCAN_MONTHS; m++) {
      const start = addMonths(birth, m);
      expect(scanDue(baby(formatDay(birth)), null, start)?.month).toBe(m + 1);
    }
    expect(scanDue(baby(formatDay(birth)), null, addMonths(birth, SCAN_MONTHS))).toBeNull();
  });
});
