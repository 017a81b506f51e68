import type { Browser } from "playwright";
import { describe, expect, test } from "vitest";
import { openTab, screenshotBoth, seriousViolations, uniqueEmail } from "./helpers/browser.ts";
import { acceptDisclaimer, expectPath, navLabels, passQuizByApi, signInThroughForm, signOutThroughMenu, signUpThroughForm } from "./helpers/flows.ts";
import { api, finishOnboarding, signInApi } from "./helpers/capture.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO } from "./helpers/server.ts";
import { setUpOnPage } from "./helpers/second-step.ts";

/** A provider (physician) and provider staff, plus the Other sign-up that waits for approval. */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

const PASSWORD = "Provider-pass1!";
const PHYSICIAN_NAV = ["Home", "Workflow", "Results", "Quiz", "Staff", "My Patients", "Help Center", "Buy Kits", "Webinar"];
const STAFF_NAV = ["Home", "Workflow", "Results", "My Patients", "Help Center", "Buy Kits", "Webinar"];

describe("provider", () => {
  const email = uniqueEmail("doctor");

  test("signs up, verifies, signs the BAA on first login, accepts the disclaimer, sees the provider dashboard", async () => {
    const { page, errors } = await openTab(browser, server.url);
    await signUpThroughForm(page, "Provider", { first: "Grace", last: "Hopper", email, password: PASSWORD, phone: "5559876543" });
    await page.goto(await server.waitForLink(email, "/verify-email"));
    await page.locator(".form-message-success").waitFor();
    // The admin verifies the new practice (ADR 25) before the provider works with patients.
    const admin = await signInApi(server, DEMO.admin, server.password(DEMO.admin));
    const doctor = (await api<{ data: Array<{ identifier: string; email: string }> }>(server, "GET", `/admin/users?search=${encodeURIComponent(email)}`, admin.token)).data.find((u) => u.email === email)!;
    await api(server, "POST", "/admin/practices/verify", admin.token, { physician_identifier: doctor.identifier });

    await signInThroughForm(page, email, PASSWORD);
    await expectPath(page, /\/baa$/);
    await page.getByRole("heading", { level: 1, name: "Business Associate Agreement" }).waitFor();
    // BAA: no header, footer only.
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    await page.getByLabel("Provider Name").fill("");
    await page.getByRole("button", { name: "Sign Agreement" }).click();
    await page.getByText("Practice name is required").waitFor();
    await page.getByText("Provider name is required").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotBoth(page, "baa");
    await page.getByLabel("Practice Name").fill("Hopper Pediatrics");
    await page.getByLabel("Provider Name").fill("Grace Hopper");
    await page.getByRole("button", { name: "Sign Agreement" }).click();
    // Then two-step sign-in, before any patient (issue 44).
    await expectPath(page, /\/two-step$/);
    await setUpOnPage(page, email);
    await expectPath(page, /\/dashboard$/);

    await acceptDisclaimer(page);
    await expectPath(page, /\/quiz-instructions$/);
    await page.goto("/dashboard");
    await page.getByRole("heading", { level: 1, name: /Dr\. Hopper/ }).waitFor();
    await page.getByText(/Scan every infant aged 0-7 months monthly/).waitFor();
    await page.getByText("No reports found").waitFor();
    expect(await page.getByRole("link", { name: "View All" }).getAttribute("href")).toBe("/results");
    expect(await navLabels(page)).toEqual(PHYSICIAN_NAV);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotBoth(page, "dashboard-physician");

    // A second sign-in skips the BAA; the quiz is still due, so it leads to the quiz instructions.
    await signOutThroughMenu(page);
    await signInThroughForm(page, email, PASSWORD);
    await expectPath(page, /\/quiz-instructions$/);
    // Once the quiz is passed, sign-in leads to the dashboard.
    await passQuizByApi(server, email, PASSWORD);
    await page.goto("/dashboard");
    await signOutThroughMenu(page);
    await signInThroughForm(page, email, PASSWORD);
    await expectPath(page, /\/dashboard$/);
    expect(errors, errors.join("\n")).toEqual([]);
  });

  test("edits the profile with a fax number", async () => {
    const { page, errors } = await openTab(browser, server.url);
    await signInThroughForm(page, email, PASSWORD);
    await expectPath(page, /\/dashboard$/);
    await page.goto("/profile");
    await page.getByText("Provider", { exact: true }).first().waitFor();
    await page.waitForFunction(() => (document.querySelector("input[name=first_name]") as HTMLInputElement | null)?.value === "Grace");
    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Fax number").fill("not a fax");
    await page.getByRole("button", { name: "Update" }).click();
    await page.getByText("Fax number is invalid").waitFor();
    await page.getByLabel("Fax number").fill("555-010-2030");
    await page.getByRole("button", { name: "Update" }).click();
    await page.getByText("Profile updated successfully").waitFor();
    await page.reload();
    await page.waitForFunction(() => (document.querySelector("input[name=fax_number]") as HTMLInputElement | null)?.value === "555-010-2030");
    // No Add New Child for providers.
    expect(await page.getByRole("button", { name: /Add New Child/ }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotBoth(page, "profile-physician");
    expect(errors, errors.join("\n")).toEqual([]);
  });
});

describe("provider staff (demo account)", () => {
  test("sees the staff header with the physician selector", async () => {
    await passQuizByApi(server, DEMO.staff, server.password(DEMO.staff));
    // The staff member's physician has signed the BAA (without it the practice's data is refused, issue 22).
    await finishOnboarding(server, await signInApi(server, DEMO.physician, server.password(DEMO.physician)), true);
    const { page, errors } = await openTab(browser, server.url);
    await signInThroughForm(page, DEMO.staff, server.password(DEMO.staff));
    await expectPath(page, /\/dashboard$/);
    const firstLogin = await page.evaluate(() => {
      const s = JSON.parse(sessionStorage.getItem("crown.session") ?? "{}") as { isFirstLogin?: boolean; disclaimerAccepted?: boolean };
      return Boolean(s.isFirstLogin && !s.disclaimerAccepted);
    });
    if (firstLogin) {
      await acceptDisclaimer(page);
      await expectPath(page, /\/quiz-instructions$/);
      await page.goto("/dashboard");
    }
    expect(await navLabels(page)).toEqual(STAFF_NAV);
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Results" }).getAttribute("href")).toBe("/staff-results");
    const selector = page.getByRole("button", { name: /Acting for physician/ });
    await selector.waitFor();
    await page.waitForFunction(() => /Dr\.|\w/.test(document.querySelector(".physician-select .select-btn")?.textContent ?? ""));
    await selector.click();
    await page.getByRole("option").first().waitFor();
    await screenshotBoth(page, "staff-physician-selector");
    await page.keyboard.press("Escape");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotBoth(page, "dashboard-staff");
    expect(errors, errors.join("\n")).toEqual([]);
  });
});

describe("other", () => {
  test("an Other account waits for approval after verification", async () => {
    const { page, errors } = await openTab(browser, server.url);
    const email = uniqueEmail("other");
    await signUpThroughForm(page, "Other", { first: "Olu", last: "Ade", email, password: PASSWORD, phone: "5551112222" });
    await page.goto(await server.waitForLink(email, "/verify-email"));
    await page.locator(".form-message-success").waitFor();
    await signInThroughForm(page, email, PASSWORD);
    await page.locator(".login-error").waitFor();
    expect(await page.locator(".login-error").innerText()).toMatch(/approval/i);
    expect(new URL(page.url()).pathname).toBe("/");
    expect(errors, errors.join("\n")).toEqual([]);
  });
});
