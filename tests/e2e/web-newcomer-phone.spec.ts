import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Browser, Page } from "playwright";
import { describe, expect, test } from "vitest";
import { DESKTOP, openTab, PHONE, screenshotBoth, seriousViolations, sidewaysScroll, type Tab, uniqueEmail, type Viewport } from "./helpers/browser.ts";
import { acceptPhotos, answerQuiz, api, daysAgo, queuedReport, quizManifest, signIn, signInApi } from "./helpers/capture.ts";
import { acceptDisclaimer, expectPath, followNav, signInThroughForm, signUpThroughForm } from "./helpers/flows.ts";
import { type CrownServer, DEMO, repoRoot } from "./helpers/server.ts";
import { portalSuite } from "./helpers/suite.ts";
import { setUpOnPage } from "./helpers/second-step.ts";

/**
 * Issue 22's second "Done when", and issue 15's portal side of practice verification: a NEW user goes
 * from sign-up to a published report and its PDF on a phone (390 px), as a physician and as a parent.
 * On every screen they visit the layout needs no sideways scrolling and axe finds nothing serious.
 * The physician's practice is being verified until an admin verifies it in the admin console (also
 * at 390 px): meanwhile their dashboard says so and the portal makes no call the server refuses.
 */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

const PASSWORD = "Newcomer-pass1!";
const SAMPLES = path.join(repoRoot, "models/head-contour/samples");

/** A tab with generous timeouts: the test machine is shared and slow. */
const tabOf = async (size: Viewport = PHONE): Promise<Tab> => {
  const tab = await openTab(browser, server.url, size);
  tab.page.setDefaultTimeout(60_000);
  tab.page.setDefaultNavigationTimeout(90_000);
  return tab;
};

/** A screen the newcomer visits: nothing scrolls sideways, axe finds nothing serious. */
const visit = async (page: Page, name: string) => {
  await page.waitForTimeout(250);
  expect(await sidewaysScroll(page), name).toEqual([]);
  expect(await seriousViolations(page), name).toEqual([]);
};

/** A new screen: checked at 390 and 1280 px, with screenshots of both. */
const visitBoth = (page: Page, name: string) =>
  screenshotBoth(page, name, async (label) => {
    expect(await sidewaysScroll(page), `${name} (${label})`).toEqual([]);
    expect(await seriousViolations(page), `${name} (${label})`).toEqual([]);
  });

const clean = (tab: Tab) => {
  expect(tab.errors, tab.errors.join("\n")).toEqual([]);
  expect(tab.failedResponses, tab.failedResponses.join("\n")).toEqual([]);
};

/** Sign-up, the e-mailed link (read from the .eml outbox), and the first sign-in. */
const signUpAndVerify = async (page: Page, role: "Provider" | "Parent", who: { first: string; last: string; email: string }) => {
  await page.goto("/sign-up");
  await visit(page, "sign-up");
  await signUpThroughForm(page, role, { ...who, password: PASSWORD, phone: "5551234567" }, () => visit(page, `sign-up-${role}`));
  await page.getByText(who.email).waitFor();
  await visit(page, "signup-confirmation");
  await page.goto(await server.waitForLink(who.email, "/verify-email"));
  await page.locator(".form-message-success").waitFor();
  await visit(page, "verify-email");
  await page.goto("/");
  await visit(page, "login");
  await signInThroughForm(page, who.email, PASSWORD);
};

/** The first-login disclaimer, then the cap quiz through its screens (all answers right), back on the dashboard. */
const disclaimerAndQuiz = async (page: Page) => {
  await page.getByRole("alertdialog", { name: "Disclaimer" }).waitFor();
  await visit(page, "disclaimer");
  await acceptDisclaimer(page);
  await expectPath(page, /\/quiz-instructions$/);
  await visit(page, "quiz-instructions");
  await page.getByRole("link", { name: "Next" }).click();
  await expectPath(page, /\/quiz$/);
  await answerQuiz(page, server, await quizManifest(server), true, async (i, stage) => {
    if (i === 1) await visit(page, `quiz-${stage}`);
  });
  await page.getByRole("heading", { name: "Congrats! You passed the quiz." }).waitFor();
  await visit(page, "quiz-pass");
  await page.getByRole("link", { name: "OK" }).click();
  await expectPath(page, /\/dashboard$/);
};

/** The files chosen in an upload dialog, from the repository's rendered sample photos. */
const samples = (names: ReadonlyArray<string>) => names.map((n) => path.join(SAMPLES, n));

/** Chooses the files with the `input` button (the capture page's, or the open upload dialog's), uploads them and confirms the success dialog. */
const uploadInDialog = async (page: Page, input: string, files: ReadonlyArray<string>) => {
  await page.locator("label.file-btn", { hasText: input }).locator("input").setInputFiles([...files]);
  const dialog = page.getByRole("dialog", { name: "Upload photos and video" });
  await dialog.getByText(`${files.length} photos, 0 videos`, { exact: false }).waitFor();
  await visit(page, "upload-dialog");
  await dialog.getByRole("button", { name: "Upload" }).click();
  const success = page.getByRole("alertdialog", { name: "Images Uploaded Successfully" });
  await success.waitFor({ timeout: 90_000 });
  await visit(page, "upload-success");
  await success.getByRole("button", { name: "OK" }).click();
};

/** A reviewer (Crown's console, at desktop width) accepts every photo of the baby's report and publishes it. */
const reviewerPublishes = async (babyName: string) => {
  const tab = await tabOf(DESKTOP);
  const { page } = tab;
  await signIn(page, "reviewer@demo.crown", server.password("reviewer@demo.crown"), /\/review$/);
  await (await queuedReport(page, babyName, 180_000)).click();
  await page.locator(".review-card").first().waitFor();
  await page.locator(".measured-photo img").first().waitFor();
  await acceptPhotos(page);
  await page.getByRole("button", { name: "Publish" }).click();
  await page.getByText("Report published successfully").first().waitFor({ timeout: 90_000 });
  expect(tab.errors, tab.errors.join("\n")).toEqual([]);
  await tab.context.close();
};

/** Downloads the row's result: Result.pdf, whose text (poppler's pdftotext) names the baby and the measurements. */
const downloadResult = async (page: Page, babyName: string) => {
  const row = page.getByRole("row", { name: new RegExp(babyName) });
  await row.waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("button", { name: /Download PDF: the result of/ }).click()]);
  expect(download.suggestedFilename()).toBe("Result.pdf");
  const text = execFileSync("pdftotext", ["-layout", (await download.path())!, "-"]).toString();
  expect(text).toContain(babyName);
  expect(text).toMatch(/Cranial Index/i);
  expect(text).toMatch(/not\s+a\s+diagnosis/);
  await page.getByText("Report downloaded successfully").waitFor();
};

describe("a new physician on a phone: sign-up to a published report", () => {
  const doctor = { first: "Noor", last: "Haddad", email: uniqueEmail("phone-doctor") };
  const patient = { first: "Theo", last: `Phone${Date.now().toString(36).slice(-4)}` };
  const patientName = `${patient.first} ${patient.last}`;
  let physician: Tab;

  test("signs up with an NPI number, verifies the e-mail, signs the BAA, takes the quiz and sees the being-verified dashboard: no refused call", async () => {
    physician = await tabOf();
    const { page } = physician;
    await signUpAndVerify(page, "Provider", doctor);
    await expectPath(page, /\/baa$/);
    await visit(page, "baa");
    await page.getByLabel("Practice Name").fill("Haddad Pediatrics");
    await page.getByLabel("Provider Name").fill(`${doctor.first} ${doctor.last}`);
    await page.getByRole("button", { name: "Sign Agreement" }).click();
    // Then two-step sign-in, before any patient (issue 44).
    await expectPath(page, /\/two-step$/);
    await setUpOnPage(page, doctor.email);
    await expectPath(page, /\/dashboard$/);
    // What a practice being verified may do meanwhile: the disclaimer and the quiz.
    await disclaimerAndQuiz(page);

    const panel = page.getByRole("region", { name: "Your practice is being verified" });
    await panel.waitFor();
    await panel.getByText("You can see patients and send invitations once Crown has verified it.").waitFor();
    await panel.getByText("1234567893").waitFor();
    await page.getByRole("heading", { name: "Meanwhile you can" }).waitFor();
    expect(await page.getByRole("heading", { name: "Recent reports" }).count()).toBe(0);
    // Nothing to upload to yet: no Upload button in the header.
    expect(await page.getByRole("button", { name: "Upload", exact: true }).count()).toBe(0);
    await visitBoth(page, "practice-being-verified");
    await page.getByRole("button", { name: "Check again" }).click();
    await page.getByText("Your practice is still being verified.").waitFor();

    // A practice screen says the same, without drawing the screen or calling for its data.
    await followNav(page, "My Patients");
    await page.getByRole("heading", { level: 1, name: "Your practice is being verified" }).waitFor();
    expect(await page.getByRole("button", { name: "Add", exact: true }).count()).toBe(0);
    await visitBoth(page, "practice-being-verified-screen");
    for (const screen of ["/results", "/my-staff", "/kiosk-settings", "/capture?cap=1"]) {
      await page.goto(screen);
      await page.getByRole("heading", { level: 1, name: "Your practice is being verified" }).waitFor();
    }
    await page.goto("/dashboard");
    await panel.waitFor();
    await page.waitForTimeout(500);
    expect(await page.locator(".toast-error").count()).toBe(0);
    // No answer was a 403 (or any other failure): the portal asked only what it may.
    clean(physician);
  }, 420_000);

  test("an admin on a phone verifies the practice in the admin console (audited, e-mailed); the tables are stacked cards", async () => {
    const tab = await tabOf();
    const { page } = tab;
    const before = (await server.outbox()).length;
    await signIn(page, DEMO.admin, server.password(DEMO.admin), /\/admin$/);
    const section = page.getByRole("region", { name: "Practices awaiting verification" });
    const row = section.getByRole("row", { name: new RegExp(doctor.email.replace(/[.]/g, "\\.")) });
    await row.waitFor();
    await row.getByText("1234567893").waitFor();
    await row.getByText("Haddad Pediatrics").waitFor();
    await row.getByText(/^\d{2}\/\d{2}\/\d{4}$/).waitFor();
    // Every admin table is a stack of cards at 390 px: the Action cell is on screen, not behind a scroll.
    // On a phone the sections an admin does not act on first are folded under their headings (issue 46).
    const users = page.getByRole("region", { name: "Users", exact: true });
    await users.getByRole("button", { name: "Users", expanded: false }).click();
    await users.getByRole("row").nth(1).waitFor();
    const action = await users.locator("tbody td.cell-actions").first().boundingBox();
    expect(action && action.x + action.width).toBeLessThanOrEqual(PHONE.width);
    await visit(page, "admin-console");
    await visitBoth(page, "admin-practices-awaiting");

    await row.getByRole("button", { name: `Verify practice of Dr. ${doctor.first} ${doctor.last}` }).click();
    await page.getByText(`Dr. ${doctor.first} ${doctor.last}'s practice is verified`).waitFor();
    await row.waitFor({ state: "detached" });
    const mail = (await server.outbox()).slice(before).filter((m) => m.to.includes(doctor.email) && m.subject === "Your practice is verified on Crown");
    expect(mail).toHaveLength(1);
    const admin = await signInApi(server, DEMO.admin, server.password(DEMO.admin));
    const audited = await api<{ data: Array<{ action: string; subject_identifier: string | null; details: { npi?: string } }> }>(server, "GET", "/admin/audit-events?action=practice.verified", admin.token);
    expect(audited.data.filter((e) => e.details.npi === "1234567893" && e.subject_identifier !== null)).not.toHaveLength(0);
    clean(tab);
    await tab.context.close();
  }, 300_000);

  test("the physician's dashboard turns into the practice's; adds a patient, uploads photos; a reviewer publishes; Results gives the PDF", async () => {
    const { page } = physician;
    await page.getByRole("button", { name: "Check again" }).click();
    await page.getByRole("heading", { name: "Recent reports" }).waitFor();
    await page.getByText("No reports found").waitFor();
    await visit(page, "dashboard-physician");

    await followNav(page, "My Patients");
    await expectPath(page, /\/my-patients$/);
    await visit(page, "my-patients-empty");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByLabel("First name").fill(patient.first);
    await page.getByLabel("Last name").fill(patient.last);
    await page.getByLabel("Date of birth").fill(daysAgo(70));
    await page.getByText("Female", { exact: true }).click();
    await visit(page, "my-patients-add");
    await page.getByRole("button", { name: "Add Patient" }).click();
    await page.getByText("Patient details added successfully").waitFor();
    await page.getByRole("row", { name: new RegExp(patientName) }).waitFor();
    await visit(page, "my-patients");

    await page.getByRole("button", { name: "Upload", exact: true }).click();
    const chooser = page.getByRole("dialog", { name: "Upload photos and video" });
    const option = chooser.locator("option", { hasText: patientName });
    await option.waitFor({ state: "attached" });
    // The portal's dates read MM/DD/YYYY (issue 22, item 10), the patient chooser's included.
    expect(await option.textContent()).toMatch(/\(born \d{2}\/\d{2}\/\d{4}\)$/);
    await chooser.getByLabel("Patient").selectOption((await option.getAttribute("value"))!);
    await visit(page, "upload-choose-patient");
    await chooser.getByRole("button", { name: "Continue" }).click();
    await uploadInDialog(page, "Choose files", samples(["good-4-plagio.jpg", "good-5-plagio-brachy.jpg", "good-6-plagio-dolicho.jpg"]));
    await expectPath(page, /\/dashboard$/);

    await reviewerPublishes(patientName);

    await followNav(page, "Results");
    await expectPath(page, /\/results$/);
    await page.getByRole("row", { name: new RegExp(patientName) }).waitFor();
    await visit(page, "results-physician");
    await downloadResult(page, patientName);
    await visit(page, "results-physician-downloaded");
    expect(physician.errors, physician.errors.join("\n")).toEqual([]);
    await physician.context.close();
  }, 600_000);
});

describe("a new parent on a phone: sign-up to a published report", () => {
  const parent = { first: "Lena", last: "Brooks", email: uniqueEmail("phone-parent") };
  const baby = { first: "Ivy", last: `Brooks${Date.now().toString(36).slice(-4)}` };
  const babyName = `${baby.first} ${baby.last}`;

  test("signs up, registers the baby with a provider, takes the quiz, uploads photos; a reviewer publishes; Results gives the PDF", async () => {
    const tab = await tabOf();
    const { page } = tab;
    await signUpAndVerify(page, "Parent", parent);
    await expectPath(page, /\/baby-details$/);
    await page.getByText("Mother", { exact: true }).click();
    await page.getByRole("combobox", { name: "Provider / Practice" }).fill("Okafor");
    await page.getByRole("option", { name: /Okafor/ }).click();
    await page.getByLabel("Baby's first name").fill(baby.first);
    await page.getByLabel("Baby's last name").fill(baby.last);
    await page.getByLabel("Date of birth").fill(daysAgo(60));
    await visit(page, "baby-details");
    await page.getByRole("button", { name: "Continue" }).click();
    await expectPath(page, /\/child-details$/);
    await page.getByText("Female", { exact: true }).click();
    await visit(page, "child-details-gender");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Skip" }).click();
    await page.getByText("White", { exact: true }).click();
    await visit(page, "child-details-race");
    await page.getByRole("button", { name: "Continue" }).click();
    await visit(page, "child-details-conditions");
    await page.getByRole("button", { name: "Continue" }).click();
    await expectPath(page, /\/dashboard$/);
    await disclaimerAndQuiz(page);
    await page.getByRole("heading", { level: 1, name: new RegExp(parent.first) }).waitFor();
    await visit(page, "dashboard-parent");

    await page.getByRole("link", { name: "Start this month's scan" }).click();
    await expectPath(page, /\/select-cap-mode$/);
    await visit(page, "select-cap-mode");
    await page.getByRole("link", { name: /I have cap/ }).click();
    await expectPath(page, /\/instructions$/);
    await visit(page, "instructions");
    await page.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/\/capture\?cap=1$/);
    await page.getByRole("button", { name: "Open the camera" }).waitFor();
    await visit(page, "capture");
    await uploadInDialog(page, "Choose photos", samples(["good-1-typical.jpg", "good-2-brachy.jpg", "good-3-dolicho.jpg", "good-4-plagio.jpg", "good-5-plagio-brachy.jpg"]));
    await expectPath(page, /\/uploads$/);
    await page.locator(".thumb").first().waitFor();
    await visit(page, "uploads");

    await reviewerPublishes(babyName);

    await followNav(page, "Results");
    await expectPath(page, /\/parent-results$/);
    await visit(page, "parent-results");
    await downloadResult(page, babyName);
    expect(tab.errors, tab.errors.join("\n")).toEqual([]);
    await tab.context.close();
  }, 600_000);
});
