import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright";
import { describe, expect, test } from "vitest";
import { OVERLAY_STYLES } from "@crown/core/measurement/overlay-legend";
import { openTab, PHONE, seriousViolations } from "./helpers/browser.ts";
import { analysedSampleReport, api, publishSampleReport, signIn } from "./helpers/capture.ts";
import { apiToken } from "./helpers/flows.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO } from "./helpers/server.ts";

/**
 * Issue 46, from the walk: the screens a new user noticed. The review console's colours and legend (items 2
 * and 9), a parent's Results (item 5), the dashboard's reminder and the bell (item 6), the provider
 * dashboard's parent name and the physician selector (item 12).
 */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

const REVIEWER = "reviewer@demo.crown";
const QUIZ_REMINDER = "Please take the quiz before your first scan (it takes less than 5 minutes).";
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

const parentTab = async (size = PHONE) => {
  const tab = await openTab(browser, server.url, size);
  tab.page.setDefaultTimeout(60_000);
  await signIn(tab.page, DEMO.parent, server.password(DEMO.parent));
  return tab;
};

describe("what a new user noticed on the walk (issue 46)", () => {
  let inReview = "";

  test("a parent whose upload is in review is told so on Results and on the dashboard is no longer asked to take the quiz before a first scan", async () => {
    const parent = await apiToken(server, DEMO.parent, server.password(DEMO.parent));
    const before = await api<Array<{ type: string; text: string }>>(server, "GET", "/user/reminders", parent);
    // The demo parent has not passed the cap quiz: before any upload the reminder is due.
    expect(before.map((r) => r.text)).toContain(QUIZ_REMINDER);
    inReview = (await analysedSampleReport(server, parent)).report;

    const { page, errors } = await parentTab({ width: 1280, height: 900 });
    await page.getByRole("heading", { name: "Reminders" }).waitFor();
    await page.locator("section[aria-labelledby='reminders-title'] .plain-list, section[aria-labelledby='reminders-title'] .muted").first().waitFor();
    expect(await page.getByText(QUIZ_REMINDER).count()).toBe(0);

    await page.goto("/parent-results");
    await page.getByText("Your upload is in review.", { exact: false }).waitFor();
    expect(await page.getByText(/contact your provider/).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors, errors.join("\n")).toEqual([]);
  }, 300_000);

  test("a parent's Results: a labelled download, 'Uploaded on' once, two reports of one day told apart, a health-record file explained; the bell dates each report and opens it", async () => {
    const parent = await apiToken(server, DEMO.parent, server.password(DEMO.parent));
    await publishSampleReport(server, parent);
    await publishSampleReport(server, parent);
    const { page, errors } = await parentTab({ width: 1280, height: 900 });
    await page.goto("/parent-results");
    const rows = page.locator("table.results-table tbody tr:not(.pad-row)");
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(2);

    // The download says what it does on the desktop, not an icon alone.
    const download = rows.first().getByRole("button", { name: /^Download PDF/ });
    expect((await download.innerText()).trim()).toBe("Download PDF");
    // "Uploaded on" is the column's header; the cells hold the moment, and the two of one day differ by their time.
    await page.getByRole("columnheader", { name: "Uploaded on" }).waitFor();
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLTableRowElement).cells[1]!.textContent!.trim()));
    expect(cells.every((c) => !c.includes("Uploaded on")), cells.join(" | ")).toBe(true);
    expect(cells.every((c) => /^\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2}\s?[AP]M( \([12] of 2\))?$/.test(c)), cells.join(" | ")).toBe(true);
    expect(new Set(cells).size, cells.join(" | ")).toBe(2);
    // No EHR jargon for a parent: the file says what it is for.
    await page.getByText(/^The health-record file holds the same result in FHIR/).waitFor();
    expect(await page.getByText(/EHR/).count()).toBe(0);
    expect(await rows.first().getByRole("button", { name: /^Health-record file \(FHIR\)/ }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // The bell: each "report ready" with its date, and a way to the report itself.
    await page.getByRole("button", { name: /notification/i }).first().click();
    const ready = page.locator(".notification-list li", { hasText: "is ready" });
    await expect.poll(() => ready.count(), { timeout: 30_000 }).toBe(2);
    for (const item of await ready.all()) {
      expect(await item.locator("time").innerText()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2}\s?[AP]M$/);
    }
    const [pdf] = await Promise.all([page.waitForEvent("download"), ready.first().getByRole("button", { name: "Open the report" }).click()]);
    expect(pdf.suggestedFilename()).toBe("Result.pdf");
    expect(readFileSync((await pdf.path())!).subarray(0, 5).toString()).toBe("%PDF-");
    expect(errors, errors.join("\n")).toEqual([]);
  }, 420_000);

  test("the review console draws the length and the width in core's colours, the PDF's, and on a phone each swatch sits beside its label", async () => {
    const { page, errors } = await openTab(browser, server.url, PHONE);
    page.setDefaultTimeout(60_000);
    await signIn(page, REVIEWER, server.password(REVIEWER), /\/review$/);
    await page.goto(`/review/${inReview}`);
    const card = page.locator(".review-card").first();
    await card.locator('line[data-mark="length"]').waitFor();
    expect(await card.locator('line[data-mark="length"]').getAttribute("stroke")).toBe(OVERLAY_STYLES.length.colour);
    expect(await card.locator('line[data-mark="width"]').getAttribute("stroke")).toBe(OVERLAY_STYLES.width.colour);

    const entries = await page.locator(".legend .legend-entry").evaluateAll((lis) =>
      lis.map((li) => {
        const swatch = li.querySelector(".sw") as HTMLElement;
        const s = swatch.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(li);
        range.setStartAfter(swatch);
        const words = [...range.getClientRects()].filter((r) => r.width > 0);
        const style = getComputedStyle(swatch);
        return {
          mark: li.getAttribute("data-mark"),
          colour: style.borderTopStyle === "dashed" ? style.borderTopColor : style.backgroundColor,
          lines: new Set(words.map((r) => Math.round(r.top))).size,
          gap: words.length ? words[0]!.left - s.right : -1,
          middle: words.length ? Math.abs(words[0]!.top + words[0]!.height / 2 - (s.top + s.height / 2)) : -1,
        };
      }),
    );
    const byMark = new Map(entries.map((e) => [e.mark, e]));
    expect(byMark.get("length")?.colour).toBe(rgb(OVERLAY_STYLES.length.colour));
    expect(byMark.get("width")?.colour).toBe(rgb(OVERLAY_STYLES.width.colour));
    for (const e of entries) {
      // On its label's line, just before it: never left at the end of the line above.
      expect(e.lines, JSON.stringify(e)).toBe(1);
      expect(e.gap, JSON.stringify(e)).toBeGreaterThanOrEqual(0);
      expect(e.gap, JSON.stringify(e)).toBeLessThan(12);
      expect(e.middle, JSON.stringify(e)).toBeLessThan(8);
    }
    expect(errors, errors.join("\n")).toEqual([]);
  }, 300_000);

  // The parent column's data is checked in tests/api/dashboard-parent-name.test.ts.
  test("a staff member's physician selector keeps the name on one line", async () => {
    const { page, errors } = await openTab(browser, server.url, { width: 1280, height: 900 });
    page.setDefaultTimeout(60_000);
    await signIn(page, DEMO.staff, server.password(DEMO.staff));
    await page.goto("/dashboard");
    await page.locator(".physician-select .select-value", { hasText: /Okafor/ }).waitFor();
    expect(await selectorLines(page)).toBe(1);
    expect(errors, errors.join("\n")).toEqual([]);
  }, 300_000);
});

/** The physician selector of a staff member: the acting physician's name on one line. */
const selectorLines = (page: Page) =>
  page.locator(".physician-select .select-value").evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });
