import type { Browser } from "playwright-core";
import { describe, expect, test } from "vitest";
import { openTab, PHONE, screenshotBoth, seriousViolations } from "./helpers/browser.ts";
import { expectPath, passQuizByApi, signInThroughForm } from "./helpers/flows.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO, DEMO_PASSWORD } from "./helpers/server.ts";

/** Issue 22 (items 7-13): what a newcomer hit walking every screen, each as a user would expect it fixed. */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

describe("screens are guarded by role (item 12)", () => {
  test("a parent typing /results or /my-patients sees 'Not available for your account', no provider screen and no error toast", async () => {
    await passQuizByApi(server, DEMO.parent, DEMO_PASSWORD);
    const { page, errors, failedResponses } = await openTab(browser, server.url);
    await signInThroughForm(page, DEMO.parent, DEMO_PASSWORD);
    await expectPath(page, /\/dashboard$/);
    for (const path of ["/results", "/my-patients", "/staff-results", "/my-staff"]) {
      await page.goto(path);
      await page.getByRole("heading", { level: 1, name: "Not available for your account" }).waitFor();
      expect(await page.getByRole("button", { name: /Add/ }).count()).toBe(0);
      expect(await page.getByPlaceholder(/Search/).count()).toBe(0);
      await page.waitForTimeout(300);
      expect(await page.locator(".toast-error").count()).toBe(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotBoth(page, "not-available-parent");
    await page.getByRole("link", { name: "Go to Home" }).click();
    await expectPath(page, /\/dashboard$/);
    expect(failedResponses, failedResponses.join("\n")).toEqual([]);
    expect(errors, errors.join("\n")).toEqual([]);
  });

  test("a physician typing /parent-results on a phone sees the same page", async () => {
    await passQuizByApi(server, DEMO.physician, DEMO_PASSWORD);
    const { page, errors } = await openTab(browser, server.url, PHONE);
    await signInThroughForm(page, DEMO.physician, DEMO_PASSWORD);
    await expectPath(page, /\/(dashboard|baa)$/);
    await page.goto("/parent-results");
    await page.getByRole("heading", { level: 1, name: "Not available for your account" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors, errors.join("\n")).toEqual([]);
  });
});
