import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright";
import { describe, expect, test } from "vitest";
import { openTab } from "./helpers/browser.ts";
import { finishOnboarding, publishSampleReport, signInApi } from "./helpers/capture.ts";
import { apiToken, expectPath, passQuizByApi, signInThroughForm } from "./helpers/flows.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO } from "./helpers/server.ts";

/** Issue 20: "Export for EHR (FHIR)" on a published report downloads its FHIR document Bundle. */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

/** The demo parent's baby with one published report of a sample photo (set up through the API: not what is under test). */
const publishedReport = async () => {
  const token = await apiToken(server, DEMO.parent, server.password(DEMO.parent));
  return publishSampleReport(server, token);
};

/** Clicks the row's export and answers the downloaded Bundle. */
const exportBundle = async (page: Page, name = /^Export for EHR \(FHIR\)/) => {
  const button = page.getByRole("button", { name }).first();
  await button.waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  expect(download.suggestedFilename()).toMatch(/-fhir\.json$/);
  const file = await download.path();
  return JSON.parse(readFileSync(file, "utf8")) as { resourceType: string; type: string; entry: Array<{ resource: Record<string, any> }> };
};

/** The Bundle names the baby, holds three Observations and the PDF. */
const checkBundle = (bundle: Awaited<ReturnType<typeof exportBundle>>, report: string, babyFirstName: string) => {
  expect(bundle).toMatchObject({ resourceType: "Bundle", type: "document" });
  const of = (type: string) => bundle.entry.map((e) => e.resource).filter((r) => r.resourceType === type);
  expect(of("Composition")).toHaveLength(1);
  expect(of("Patient")[0]!.name[0].given[0]).toBe(babyFirstName);
  expect(of("Observation")).toHaveLength(3);
  const dr = of("DiagnosticReport")[0]!;
  expect(dr.id).toBe(report);
  const pdf = dr.presentedForm[0];
  expect(pdf.contentType).toBe("application/pdf");
  expect(Buffer.from(pdf.data, "base64").subarray(0, 5).toString()).toBe("%PDF-");
  expect(Buffer.from(pdf.data, "base64").length).toBe(pdf.size);
};

describe("Export for EHR (FHIR)", () => {
  let published: { report: string; babyFirstName: string };

  test("the parent exports a published report from Results: the Bundle names the baby, three Observations and the PDF", async () => {
    published = await publishedReport();
    const { page, errors } = await openTab(browser, server.url);
    await signInThroughForm(page, DEMO.parent, server.password(DEMO.parent));
    await expectPath(page, /\/dashboard$/);
    await page.goto("/parent-results");
    // A parent's words for the same file: what it is for, not "EHR" (issue 46).
    await page.getByText(/^The health-record file holds the same result in FHIR/).waitFor();
    expect(await page.getByText(/EHR/).count()).toBe(0);
    checkBundle(await exportBundle(page, /^Health-record file \(FHIR\)/), published.report, published.babyFirstName);
    await page.getByText("Health-record file downloaded").waitFor();
    expect(errors, errors.join("\n")).toEqual([]);
  }, 300_000);

  test("the provider exports the same report from Results", async () => {
    await passQuizByApi(server, DEMO.physician, server.password(DEMO.physician));
    await finishOnboarding(server, await signInApi(server, DEMO.physician, server.password(DEMO.physician)), true);
    const { page, errors } = await openTab(browser, server.url);
    await signInThroughForm(page, DEMO.physician, server.password(DEMO.physician));
    await expectPath(page, /\/dashboard$/);
    await page.goto("/results");
    checkBundle(await exportBundle(page), published.report, published.babyFirstName);
    expect(errors, errors.join("\n")).toEqual([]);
  }, 120_000);
});
