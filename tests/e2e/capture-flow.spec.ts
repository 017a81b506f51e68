import { AUTO_CAPTURE_REFERRED } from "@crown/core/capture/rules";
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DESKTOP, openTab, PHONE, screenshotBoth, seriousViolations, type Tab, uniqueEmail } from "./helpers/browser.ts";
import { acceptPhotos, answerQuiz, api, type ApiUser, daysAgo, finishOnboarding, launchWithFakeCamera, queuedReport, quizManifest, signIn, signInApi, signUpVerified, snapshotWebDist } from "./helpers/capture.ts";
import { type CrownServer, DEMO, repoRoot, startCrown } from "./helpers/server.ts";

/**
 * Capture and reporting end to end (issue 7), in Debian Chromium against the real server: a parent
 * fails then passes the cap quiz, captures from a rendered clip fed as the camera, uploads with
 * visible progress; a reviewer publishes; the parent and the provider download Result.pdf; a staff
 * member switching physicians sees only that physician's results and patients.
 */

let server: CrownServer;
let browser: Browser;
let physician: ApiUser;
let dist: { dir: string; remove: () => void } | undefined;
let parentEmail: string;
const PASSWORD = "Parent-pass1!";
const BABY = { first: "Milo", last: "Tester" };

beforeAll(async () => {
  dist = await snapshotWebDist();
  server = await startCrown({ CROWN_WEB_DIST: dist.dir });
  browser = await launchWithFakeCamera();
  physician = await signInApi(server, DEMO.physician, server.password(DEMO.physician));
  await finishOnboarding(server, physician, true);
  parentEmail = uniqueEmail("capture-parent");
  await signUpVerified(server, "parent", { email: parentEmail, password: PASSWORD, first: "Paula", last: "Tester" });
  const parent = await signInApi(server, parentEmail, PASSWORD);
  await api(server, "POST", "/user/register-baby", parent.token, {
    physician_identifier: physician.identifier,
    first_name: BABY.first,
    last_name: BABY.last,
    date_of_birth: daysAgo(75),
    relation: "mother",
    gender: "male",
  });
  await finishOnboarding(server, parent, false);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  dist?.remove();
});

/** Screenshot at phone and desktop width, and no serious axe-core violation. */
const check = async (page: Page, name: string) => {
  await page.waitForTimeout(200);
  expect(await seriousViolations(page), name).toEqual([]);
  await screenshotBoth(page, name);
};

/** A tab with generous timeouts: the test machine is shared and slow. */
const tabOf = async (size = DESKTOP): Promise<Tab> => {
  const tab = await openTab(browser, server.url, size);
  tab.page.setDefaultTimeout(60_000);
  tab.page.setDefaultNavigationTimeout(90_000);
  return tab;
};

const noErrors = (tab: Tab) => expect(tab.errors, tab.errors.join("\n")).toEqual([]);

describe("parent: quiz, capture and upload", () => {
  test("chooses the cap mode, reads the instructions (parent texts, 7 steps, liability closed) and the no-cap pages", async () => {
    const tab = await tabOf();
    const { page } = tab;
    await signIn(page, parentEmail, PASSWORD);
    await page.goto("/select-cap-mode");
    await page.getByRole("heading", { name: "Do you have Crown Kit?" }).waitFor();
    await check(page, "select-cap-mode");
    await page.getByRole("link", { name: /I have cap/ }).click();
    await page.waitForURL(/\/instructions$/);
    await page.getByRole("heading", { name: "How to scan with the cap" }).waitFor();
    const steps = page.locator("ol.steps > li");
    expect(await steps.count()).toBe(8); // 7 steps and the liability notice
    const notice = page.getByRole("button", { name: /Cybersecurity and liability notice/ });
    expect(await notice.getAttribute("aria-expanded")).toBe("false");
    await page.getByText("You need at least 5 good shots.").waitFor();
    await check(page, "instructions-cap-parent");
    await notice.click();
    expect(await notice.getAttribute("aria-expanded")).toBe("true");

    await page.getByRole("link", { name: "Instructions" }).click();
    await page.waitForURL(/\/select-cap-mode$/);
    await page.getByRole("link", { name: /I dont have cap/ }).click();
    await page.waitForURL(/\/nocap-instructions\/instructions$/);
    await page.getByText("Have you taken the quiz? If not, please go and take it first (it takes < 5 min).").waitFor();
    expect(await page.getByRole("link", { name: "Next" }).count()).toBe(0);
    await check(page, "nocap-instructions-instructions");
    await page.getByRole("link", { name: "Take the no-cap quiz" }).click();
    await page.waitForURL(/\/nocap-instructions\/quiz$/);
    await page.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/\/no-cap-quiz$/);
    await page.getByRole("heading", { name: "Question 1/10" }).waitFor();
    await check(page, "no-cap-quiz");
    await page.goto("/optional-quiz-instructions");
    await check(page, "optional-quiz-instructions");
    noErrors(tab);
    await tab.context.close();
  }, 300_000);

  test("fails the cap quiz, tries again and passes (8 of 10 needed), recorded by the server", async () => {
    const tab = await tabOf();
    const { page } = tab;
    await signIn(page, parentEmail, PASSWORD);
    const manifest = await quizManifest(server);
    await page.goto("/quiz-instructions");
    await check(page, "quiz-instructions");
    await page.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/\/quiz$/);
    await answerQuiz(page, server, manifest, false, async (i, stage) => {
      if (i === 1) await check(page, stage === "question" ? "quiz-question" : "quiz-feedback-wrong");
    });
    await page.getByRole("heading", { name: "Better Luck Next Time!" }).waitFor();
    await page.getByText("You scored 0 out of 10.").waitFor();
    await check(page, "quiz-fail");
    await page.getByRole("link", { name: "Try again!" }).click();
    await page.waitForURL(/\/quiz-instructions$/);
    await page.getByRole("link", { name: "Next" }).click();
    await answerQuiz(page, server, manifest, true);
    await page.getByRole("heading", { name: "Congrats! You passed the quiz." }).waitFor();
    await page.getByText("You scored 10 out of 10.").waitFor();
    await check(page, "quiz-pass");
    const parent = await signInApi(server, parentEmail, PASSWORD);
    const onboarding = await api<{ is_quiz_time?: boolean }>(server, "GET", "/user/onboarding", parent.token);
    expect(onboarding.is_quiz_time ?? false).toBe(false);
    await page.getByRole("link", { name: "OK" }).click();
    await page.waitForURL(/\/dashboard$/);
    noErrors(tab);
    await tab.context.close();
  }, 300_000);

  test("captures from the camera with the model drawing the outline, picks 5 shots and uploads them with visible progress", async () => {
    const tab = await tabOf(PHONE);
    const { page } = tab;
    await signIn(page, parentEmail, PASSWORD);
    await page.goto("/instructions");
    await page.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/\/capture\?cap=1$/);
    await page.getByRole("button", { name: "Open the camera" }).click();
    // The worker answers for live frames: a verdict (good, or the reason) under the preview.
    const status = page.locator(".capture-status");
    await expect
      .poll(async () => (await status.textContent()) ?? "", { timeout: 240_000, interval: 1000 })
      .toMatch(/Good frame|Image is|No nose|Head|Hair|Too much|No head/);
    await page.setViewportSize(DESKTOP);
    await check(page, "capture-live");
    await page.setViewportSize(PHONE);
    await page.getByRole("button", { name: "Regular Capture" }).click();
    await page.getByRole("heading", { name: "Select good shots" }).waitFor({ timeout: 40_000 });
    // Five shots the model did not leave unsure: an unsure (referred) shot is kept and uploaded if chosen, but
    // does not count towards the minimum (the capture machine's SAVE guard), and which frames come out
    // unsure depends on when the fake camera's frames were taken.
    const shots = page.locator(".shot");
    const countable: number[] = [];
    for (let i = 0; i < (await shots.count()); i++) if ((await shots.nth(i).locator(".shot-verdict.unsure").count()) === 0) countable.push(i);
    expect(countable.length).toBeGreaterThanOrEqual(5);
    const chosen = new Set(countable.slice(0, 5));
    for (let i = 0; i < (await shots.count()); i++) {
      const box = shots.nth(i).locator("input[type=checkbox]");
      const checked = await box.isChecked();
      if (chosen.has(i) && !checked) await box.check();
      if (!chosen.has(i) && checked) await box.uncheck();
    }
    await check(page, "capture-select-shots");
    await page.getByRole("button", { name: "Save" }).click();
    const dialog = page.getByRole("dialog", { name: "Upload photos and video" });
    await dialog.waitFor();
    await check(page, "upload-dialog");
    // Slow the upload down so the progress bars are seen moving.
    await page.route("**/api/v1/en/report/upload**", async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Upload" }).click();
    await dialog.getByRole("progressbar", { name: "Overall upload progress" }).waitFor();
    await screenshotBoth(page, "upload-progress");
    const success = page.getByRole("alertdialog", { name: "Images Uploaded Successfully" });
    await success.waitFor({ timeout: 60_000 });
    await success.getByText("We will review your photos and videos and get back to you soon").waitFor();
    await check(page, "upload-success");
    await success.getByRole("button", { name: "OK" }).click();
    await page.waitForURL(/\/uploads$/);
    await page.locator(".thumb").first().waitFor();
    await check(page, "uploads");
    await page.locator(".thumb").first().click();
    const attachment = page.getByRole("dialog", { name: "Attachment" });
    await attachment.locator(".attachment-media").waitFor();
    await check(page, "uploads-attachment");
    await attachment.getByRole("button", { name: "Close" }).click();
    noErrors(tab);
    await tab.context.close();
  }, 480_000);

  test("uploads chosen photos and a video; a failed file shows the error dialog and is retried without losing the others", async () => {
    const tab = await tabOf();
    const { page } = tab;
    await signIn(page, parentEmail, PASSWORD);
    await page.goto("/capture?cap=0");
    const samples = path.join(repoRoot, "models/head-contour/samples");
    const files = [...readdirSync(samples).filter((f) => f.startsWith("good-")).slice(0, 5), "clip.mp4"].map((f) => path.join(samples, f));
    await page.locator("label.file-btn", { hasText: "Choose photos" }).locator("input").setInputFiles(files);
    const dialog = page.getByRole("dialog", { name: "Upload photos and video" });
    await dialog.getByText("5 photos, 1 video", { exact: false }).waitFor();
    let failed = false;
    await page.route("**/api/v1/en/report/upload**", async (route) => {
      const body = route.request().postDataBuffer()?.toString("latin1") ?? "";
      if (!failed && body.includes("good-2-")) {
        failed = true;
        await route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ message: "The storage is busy. Please retry." }) });
        return;
      }
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Upload" }).click();
    const oops = page.getByRole("alertdialog", { name: "Oops! There was some error" });
    await oops.getByText("The storage is busy. Please retry.").waitFor();
    await check(page, "upload-error");
    await oops.getByRole("button", { name: "OK" }).click();
    await dialog.getByText(/Failed: The storage is busy/).waitFor();
    expect(await dialog.getByText("Uploaded", { exact: true }).count()).toBe(5);
    await dialog.getByRole("button", { name: /^Retry good-2-/ }).click();
    await page.getByRole("alertdialog", { name: "Images Uploaded Successfully" }).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "OK" }).click();
    await page.waitForURL(/\/uploads$/);
    noErrors(tab);
    await tab.context.close();
  }, 300_000);

  test("Auto Capture keeps the first 10 good frames and stops", async () => {
    const tab = await tabOf();
    const { page } = tab;
    await signIn(page, parentEmail, PASSWORD);
    await page.goto("/capture?cap=1");
    await page.getByRole("button", { name: "Open the camera" }).click();
    const auto = page.getByRole("button", { name: "Auto Capture" });
    await expect.poll(() => auto.isEnabled(), { timeout: 240_000, interval: 1000 }).toBe(true);
    await auto.click();
    await page.getByText(/Good shots: \d+ of 10/).waitFor();
    await screenshotBoth(page, "capture-auto");
    await page.getByRole("heading", { name: "Select good shots" }).waitFor({ timeout: 300_000 });
    // Ten good shots; beside them up to three frames the model was unsure of (AUTO_CAPTURE_REFERRED; a busy
    // machine's frames are sometimes judged "refer"), kept, flagged and selected with the good ones for the
    // reviewer (docs/adr/0083: defaultSelection leaves out retakes only; they do not count towards Save).
    expect(await page.locator(".shot-verdict.good").count()).toBe(10);
    const unsure = await page.locator(".shot-verdict.unsure").count();
    expect(unsure).toBeLessThanOrEqual(AUTO_CAPTURE_REFERRED);
    expect(await page.locator(".shot").count()).toBe(10 + unsure);
    expect(await page.locator(".shot input:checked").count()).toBe(10 + unsure);
    expect(await page.locator(".shot.chosen .shot-verdict.good").count()).toBe(10);
    expect(await page.locator(".shot.chosen .shot-verdict.unsure").count()).toBe(unsure);
    noErrors(tab);
    await tab.context.close();
  }, 480_000);

  test("checks the upload limits before sending (format message)", async () => {
    const tab = await tabOf();
    const { page } = tab;
    await signIn(page, parentEmail, PASSWORD);
    await page.goto("/capture?cap=0");
    await page.locator("label.file-btn", { hasText: "Choose photos" }).locator("input").setInputFiles([
      { name: "a.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") },
    ]);
    const dialog = page.getByRole("dialog", { name: "Upload photos and video" });
    await dialog.getByRole("button", { name: "Upload" }).click();
    await dialog.getByText("Files with only .jpg, .jpeg, .png, .mov or .mp4 formats are allowed for upload").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    noErrors(tab);
    await tab.context.close();
  }, 300_000);
});

describe("review and results", () => {
  test("a reviewer checks the photos (outline, axes, diagonals), fixes a nose tip where needed, accepts and publishes", async () => {
    const tab = await tabOf(DESKTOP);
    const { page } = tab;
    await signIn(page, "reviewer@demo.crown", server.password("reviewer@demo.crown"), /\/review$/);
    const link = await queuedReport(page, `${BABY.first} ${BABY.last}`);
    await check(page, "review-queue");
    await link.click();
    await page.locator(".review-card").first().waitFor();
    await page.locator(".measured-photo img").first().waitFor();
    // Photos of different heads disagree (issue 22, item 11): the reviewer confirms each before publishing.
    const cards = await acceptPhotos(page);
    // Drag the first photo's nose tip a little: the photo is re-measured.
    const handle = cards.first().locator(".nose-handle");
    await cards.first().scrollIntoViewIfNeeded();
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 6, box.y + box.height / 2 - 4, { steps: 4 });
    await page.mouse.up();
    await page.getByText("Nose tip corrected and photo re-measured").first().waitFor();
    await cards.first().getByText("nose corrected", { exact: false }).waitFor();
    await check(page, "review-report");
    await page.getByLabel("Reviewer's note").fill("Clear photos; plagiocephaly pattern to follow up.");
    await page.getByRole("button", { name: "Save note" }).click();
    await page.getByText("Note saved").first().waitFor();
    // The preview renders the PDF from the review as it stands, before anything is published.
    const [previewTab] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("button", { name: "Preview the PDF" }).click()]);
    expect(previewTab.url()).toMatch(/^blob:/);
    await previewTab.close();
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Report published successfully").first().waitFor({ timeout: 60_000 });
    await page.getByText("published", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Open the published PDF (version 1)" }).waitFor();
    noErrors(tab);
    await tab.context.close();
  }, 480_000);

  test("the parent downloads Result.pdf from Results", async () => {
    const tab = await tabOf();
    const { page } = tab;
    await signIn(page, parentEmail, PASSWORD);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Results" }).click();
    await page.waitForURL(/\/parent-results$/);
    const row = page.getByRole("row", { name: new RegExp(`${BABY.first} ${BABY.last}`) });
    await row.waitFor();
    expect(await page.locator("tbody tr").count()).toBe(10); // padded to 10
    await check(page, "parent-results");
    // Both waits start before the click: the PDF opens 1 s after its download, which a loaded machine may report later than that.
    const [download, popup] = await Promise.all([page.waitForEvent("download"), page.waitForEvent("popup"), row.getByRole("button", { name: /Download PDF: the result of/ }).click()]);
    expect(download.suggestedFilename()).toBe("Result.pdf");
    expect(popup.url()).toMatch(/^blob:/);
    await page.getByText("Report downloaded successfully").waitFor();
    noErrors(tab);
    await tab.context.close();
  }, 300_000);

  test("the provider sees the result unread and bold, downloads Result.pdf, and it becomes read", async () => {
    const tab = await tabOf();
    const { page } = tab;
    await signIn(page, DEMO.physician, server.password(DEMO.physician));
    await page.goto("/results");
    await page.getByRole("heading", { name: "Results" }).waitFor();
    await page.getByText("All the results are available here.").waitFor();
    const row = page.getByRole("row", { name: new RegExp(`${BABY.first} ${BABY.last}`) });
    await row.waitFor();
    expect(await row.getAttribute("class")).toContain("unread");
    // "Uploaded on" once, in the column's header; the cell holds the date (issue 46).
    await expect.poll(() => row.getByRole("cell").nth(1).textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    await page.getByRole("columnheader", { name: "Uploaded on" }).waitFor();
    await check(page, "results-provider");
    await page.getByRole("checkbox", { name: "Reviewed" }).check();
    await page.getByText("No Result Found").waitFor();
    await check(page, "results-provider-empty");
    await page.getByRole("checkbox", { name: "Unread" }).check();
    await row.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), page.waitForEvent("popup"), row.getByRole("button", { name: /Download PDF: the result of/ }).click()]);
    expect(download.suggestedFilename()).toBe("Result.pdf");
    await page.getByRole("checkbox", { name: "Reviewed" }).check();
    await row.waitFor();
    expect((await row.getAttribute("class")) ?? "").not.toContain("unread"); // a read row may have no class at all
    await page.getByRole("searchbox", { name: "Search for Results" }).fill("zz");
    await page.waitForTimeout(500);
    await row.waitFor(); // two characters do not search
    await page.getByRole("searchbox", { name: "Search for Results" }).fill("zzzz");
    await page.getByText("No Result Found").waitFor();
    noErrors(tab);
    await tab.context.close();
  }, 300_000);
});

describe("provider practice, help and consoles", () => {
  test("provider screens: instructions (8 steps, 3 shots), patients, staff, help center, workflow", async () => {
    const tab = await tabOf();
    const { page } = tab;
    await signIn(page, DEMO.physician, server.password(DEMO.physician));
    await page.goto("/optional-quiz-instructions");
    await page.getByRole("button", { name: /Results/ }).waitFor();
    expect(await page.locator("ol.steps > li").count()).toBe(9);
    await page.getByText("At least 3 good shots are needed for a report.").waitFor();
    await check(page, "instructions-cap-provider");
    await page.goto("/my-patients");
    await page.getByRole("row", { name: new RegExp(`${BABY.first} ${BABY.last}`) }).waitFor();
    await check(page, "my-patients");
    await page.getByRole("button", { name: `Remove ${BABY.first} ${BABY.last}` }).click();
    await page.getByText("Please contact customer support to remove patient").waitFor();
    await check(page, "my-patients-remove");
    await page.getByRole("button", { name: "OK" }).click();
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("heading", { name: "Add Patient" }).waitFor();
    await page.getByRole("button", { name: "Add Patient" }).click();
    await page.getByText("First name is required").waitFor();
    await check(page, "my-patients-add");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: `Edit ${BABY.first} ${BABY.last}` }).click();
    await page.getByRole("button", { name: "Update Patient" }).waitFor();
    await check(page, "my-patients-edit");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.goto("/my-staff");
    await page.getByRole("heading", { name: "My Staff Members" }).waitFor();
    await check(page, "my-staff");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    const newNurse = uniqueEmail("nurse");
    await page.getByLabel("Email").fill(newNurse);
    await page.getByRole("button", { name: "Add Staff" }).click();
    await page.getByText("Staff member added successfully").waitFor();
    await page.getByRole("row", { name: new RegExp(newNurse.replace(/[.]/g, "\\.")) }).getByRole("cell", { name: "Nurse", exact: true }).waitFor();
    await page.getByRole("columnheader", { name: "Staff Type" }).waitFor();
    await check(page, "my-staff-list");
    await page.goto("/help-center");
    await page.getByRole("heading", { name: "Frequently asked questions" }).waitFor();
    expect(await page.locator("ol.faq > li").count()).toBe(12);
    await check(page, "help-center-provider");
    await page.goto("/workflow");
    await page.getByRole("heading", { name: "Workflow" }).waitFor();
    expect(await page.locator("svg.flow-diagram").count()).toBe(2);
    await check(page, "workflow");
    noErrors(tab);
    await tab.context.close();
  }, 300_000);

  test("parent help center: 10 FAQs and the two-tab workflow", async () => {
    const tab = await tabOf();
    const { page } = tab;
    await signIn(page, parentEmail, PASSWORD);
    await page.goto("/help-center");
    await page.getByRole("heading", { name: "Frequently asked questions" }).waitFor();
    expect(await page.locator("ol.faq > li").count()).toBe(10);
    await page.getByRole("tab", { name: "With your provider" }).click();
    await page.getByRole("button", { name: "How accurate is Crown?" }).click();
    await page.getByText(/not photos of real infants/).waitFor();
    await check(page, "help-center-parent");
    noErrors(tab);
    await tab.context.close();
  }, 300_000);

  test("the admin console lists pending approvals, users and physicians", async () => {
    const tab = await tabOf();
    const { page } = tab;
    const throwaway = uniqueEmail("blockme");
    await signUpVerified(server, "parent", { email: throwaway, password: PASSWORD, first: "Block", last: "Me" });
    await signIn(page, "admin@demo.crown", server.password("admin@demo.crown"), /\/admin$/);
    await page.getByRole("heading", { name: "Pending approvals" }).waitFor();
    await page.getByRole("heading", { name: "Kiosk devices" }).waitFor();
    await page.getByRole("searchbox", { name: "Search users" }).fill(throwaway);
    await page.getByRole("button", { name: `Block ${throwaway}` }).click();
    await page.getByRole("button", { name: `Unblock ${throwaway}` }).waitFor();
    await expect(signInApi(server, throwaway, PASSWORD)).rejects.toThrow(/403/);
    await check(page, "admin-console");
    await page.getByRole("button", { name: `Unblock ${throwaway}` }).click();
    await page.getByRole("button", { name: `Block ${throwaway}` }).waitFor();
    // Kiosk devices of the demo practice: create one (one-time pairing code), then revoke it.
    const practice = page.getByLabel("Practice", { exact: true });
    await practice.locator("option", { hasText: "Okafor" }).first().waitFor({ state: "attached" });
    const okafor = (await practice.locator("option", { hasText: "Okafor" }).first().getAttribute("value")) ?? "";
    await practice.selectOption(okafor);
    await page.getByLabel("New device name").fill("Front desk tablet");
    await page.getByRole("button", { name: "Create device" }).click();
    await page.locator(".pairing-code").waitFor();
    expect((await page.locator(".pairing-code").textContent())?.trim()).toMatch(/^\S{8,9}$/);
    await page.getByRole("button", { name: "Revoke Front desk tablet" }).click();
    // Revoking asks why, in a dialog (ADR 0170): no reason is refused there, a reason from the list is shown in the table.
    const dialog = page.getByRole("dialog", { name: "Revoke Front desk tablet" });
    await dialog.getByRole("button", { name: "Revoke device" }).click();
    await dialog.getByText("Choose a reason.").waitFor();
    expect(await page.getByRole("cell", { name: "revoked", includeHidden: true }).count()).toBe(0);
    await check(page, "admin-console-kiosk-revoke");
    await dialog.getByText("Replaced by another tablet").click();
    expect(await dialog.getByRole("radio", { name: "Replaced by another tablet" }).isChecked()).toBe(true);
    await dialog.getByRole("button", { name: "Revoke device" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("cell", { name: "revoked" }).waitFor();
    await page.getByRole("row", { name: /Front desk tablet/ }).getByRole("cell", { name: "Replaced by another tablet" }).waitFor();
    await check(page, "admin-console-kiosk");
    noErrors(tab);
    await tab.context.close();
  }, 300_000);
});

describe("staff acting for two physicians", () => {
  test("a staff member switches physicians and sees only that physician's results and patients", async () => {
    const second = uniqueEmail("second-physician");
    await signUpVerified(server, "physician", { email: second, password: PASSWORD, first: "Grace", last: "Hopper" });
    const p2 = await signInApi(server, second, PASSWORD);
    await finishOnboarding(server, p2, true);
    await api(server, "POST", "/physician/add-user", p2.token, { email: DEMO.staff, type: "nurse" });
    await api(server, "POST", "/patient/add", p2.token, { first_name: "Zoe", last_name: "Second", date_of_birth: daysAgo(40), gender: "female" });
    const nurse = await signInApi(server, DEMO.staff, server.password(DEMO.staff));
    // An existing staff account acts for a second practice once it accepts the offer (ADR 56).
    const offers = await api<{ data: Array<{ identifier: string; kind: string }> }>(server, "GET", "/user/link-requests", nurse.token);
    expect(offers.data).toHaveLength(1);
    await api(server, "POST", "/user/link-requests/accept", nurse.token, { identifier: offers.data[0]!.identifier, kind: offers.data[0]!.kind });
    await finishOnboarding(server, nurse, false);

    const tab = await tabOf();
    const { page } = tab;
    // A busy server sheds the physicians' list twice (503 with Retry-After, as load shedding answers): the
    // client's one retry is not enough, and the selector must keep asking rather than stay empty for ever.
    let shed = 0;
    await page.route("**/api/v1/*/physician/list", async (route) => {
      if (shed < 2) {
        shed += 1;
        await route.fulfill({ status: 503, headers: { "retry-after": "1", "content-type": "application/json" }, body: JSON.stringify({ message: "Crown is busy right now. Please try again in a moment." }) });
      } else await route.continue();
    });
    const listed = page.waitForResponse((r) => /\/physician\/list$/.test(new URL(r.url()).pathname) && r.status() === 200, { timeout: 120_000 });
    await signIn(page, DEMO.staff, server.password(DEMO.staff));
    // The condition the options depend on: the list answered, and its first physician preselected.
    await listed;
    expect(shed).toBe(2);
    const select = page.getByRole("button", { name: /Acting for physician/ });
    await expect.poll(async () => (await select.textContent()) ?? "", { timeout: 60_000 }).toMatch(/Okafor|Hopper/);
    const choose = async (name: RegExp) => {
      // After a page load the list is asked for again: open the selector once it shows a physician.
      await expect.poll(async () => (await select.textContent()) ?? "", { timeout: 60_000 }).toMatch(/Okafor|Hopper/);
      await select.click();
      await page.getByRole("option", { name }).click();
    };
    await page.goto("/staff-results");
    await choose(/Okafor/);
    const milo = page.getByRole("row", { name: new RegExp(`${BABY.first} ${BABY.last}`) });
    await milo.waitFor();
    await check(page, "staff-results");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "My Patients" }).click();
    await milo.waitFor();
    expect(await page.getByRole("row", { name: /Zoe Second/ }).count()).toBe(0);

    await choose(/Hopper/);
    await page.getByRole("row", { name: /Zoe Second/ }).waitFor();
    expect(await milo.count()).toBe(0);
    await check(page, "staff-my-patients");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Results" }).click();
    await page.getByText("No Result Found").waitFor();
    expect(await milo.count()).toBe(0);
    noErrors(tab);
    await tab.context.close();
  }, 300_000);
});
