import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright";
import { describe, expect, test } from "vitest";
import { PHONE, seriousViolations, uniqueEmail } from "./helpers/browser.ts";
import { api, daysAgo, signInApi } from "./helpers/capture.ts";
import { englishOn, englishPhrases } from "./helpers/english.ts";
import { expectPath, passQuizByApi } from "./helpers/flows.ts";
import { type CrownServer, repoRoot } from "./helpers/server.ts";
import { portalSuite } from "./helpers/suite.ts";

/**
 * Issue 21's walk: a browser set to Spanish signs up a new parent, verifies the e-mail, goes through
 * onboarding to the dashboard and uploads photos; a reviewer publishes (through the API: not what is
 * under test); the parent downloads the report, whose text (pdftotext) is Spanish. On every screen
 * axe finds nothing serious and no phrase of the English catalogues is shown. Steps find their
 * controls by structure (field names, roles, classes), not by English or guessed Spanish words, so
 * the walk reaches every screen and names each one that still shows English.
 */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

const PASSWORD = "Sol-de-mayo-42";
const SAMPLES = path.join(repoRoot, "models/head-contour/samples");
const PHRASES = englishPhrases();
const TEXTS = path.join(repoRoot, "tests/artifacts/spanish-walk");

/** One screen of the walk: Spanish, nothing serious for axe, none of the English catalogues' phrases. */
const visit = async (page: Page, screen: string) => {
  await page.waitForTimeout(300);
  // A screen still loading (its code or its words) shows only the spinner: read it once it has drawn.
  await expect.poll(() => page.locator(".page-spinner").count(), { message: `${screen} drawn`, timeout: 30_000 }).toBe(0);
  expect(await page.locator("html").getAttribute("lang"), screen).toBe("es");
  // To read what each screen shows (e.g. English not yet in any catalogue): CROWN_E2E_DEBUG=1.
  if (process.env.CROWN_E2E_DEBUG) {
    mkdirSync(TEXTS, { recursive: true });
    writeFileSync(path.join(TEXTS, `${screen.replace(/\W+/g, "-")}.txt`), await page.locator("body").innerText());
  }
  // Soft: the walk goes on and the failure lists every screen that still shows English.
  expect.soft(await englishOn(page, PHRASES), `English on ${screen}`).toEqual([]);
  expect.soft(await seriousViolations(page), `axe on ${screen}`).toEqual([]);
};

/** The parent's published report, as a reviewer finds it in the queue, accepts its photos and publishes it. */
const reviewerPublishes = async (babyName: string) => {
  const reviewer = await signInApi(server, "reviewer@demo.crown", server.password("reviewer@demo.crown"));
  let report: string | undefined;
  await expect
    .poll(
      async () => {
        const queue = await api<{ data: Array<{ report_identifier: string; baby_name: string; status: string }> }>(server, "POST", "/review/queue", reviewer.token, {});
        report = queue.data.find((r) => r.baby_name === babyName && r.status !== "analyzing" && r.status !== "submitted")?.report_identifier;
        return report;
      },
      { timeout: 240_000, interval: 2000 },
    )
    .toBeDefined();
  const detail = await api<{ attachments: Array<{ identifier: string; kind: string; measurement: { ci: number | null } | null }> }>(server, "GET", `/review/report/${report}`, reviewer.token);
  for (const photo of detail.attachments.filter((a) => a.measurement?.ci !== null && a.measurement !== null)) {
    await api(server, "POST", `/review/report/${report}/decision`, reviewer.token, { attachment_identifier: photo.identifier, decision: "accept" });
  }
  await api(server, "POST", `/review/report/${report}/publish`, reviewer.token, {});
};

describe("a new parent in Spanish: sign-up to the Spanish report", () => {
  const parent = { first: "Lucía", last: "Pérez", email: uniqueEmail("walk-lucia") };
  const baby = { first: "Sofía", last: `Pérez${Date.now().toString(36).slice(-4)}` };
  const babyName = `${baby.first} ${baby.last}`;

  test("signs up, verifies, onboards, uploads; a reviewer publishes; the PDF is Spanish", async () => {
    expect(PHRASES.length).toBeGreaterThan(0);
    // A phone whose browser reads Spanish first: the portal picks it from Accept-Language.
    const context = await browser.newContext({ baseURL: server.url, viewport: PHONE, locale: "es-US" });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    page.setDefaultNavigationTimeout(90_000);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));

    // Sign-up (the signed-out screens: common.json).
    await page.goto("/sign-up");
    await page.getByRole("heading", { level: 1, name: "Cree su cuenta" }).waitFor();
    await visit(page, "sign-up");
    await page.getByText("Padre o madre", { exact: true }).click();
    await page.getByRole("button", { name: "Continuar" }).click();
    await page.getByLabel("Nombre", { exact: true }).fill(parent.first);
    await page.getByLabel("Apellido").fill(parent.last);
    await page.getByLabel("Correo electrónico").fill(parent.email);
    await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirmar contraseña").fill(PASSWORD);
    await page.getByLabel("Número de celular").fill("5551234567");
    await page.getByText("Acepto los").click();
    await visit(page, "sign-up form");
    await page.getByRole("button", { name: "Registrarse" }).click();
    await page.waitForURL(/\/signup-confirmation$/);
    await visit(page, "signup-confirmation");

    // The verification e-mail, in Spanish, from the outbox.
    const link = await server.waitForLink(parent.email, "/verify-email");
    const verification = (await server.outbox()).find((m) => m.to.includes(parent.email))!;
    expect(verification.subject).toBe("Verifique su correo electrónico para Crown");
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.locator(".form-message-success").waitFor();
    await visit(page, "verify-email");

    await page.goto("/");
    await visit(page, "sign-in");
    await page.getByLabel("Correo electrónico").fill(parent.email);
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByRole("button", { name: "Iniciar sesión" }).click();

    // Onboarding: the baby, with a provider of the demo practice.
    await expectPath(page, /\/baby-details$/);
    await page.locator("input[name=first_name]").waitFor();
    await visit(page, "baby-details");
    await page.locator(".choice-option").filter({ has: page.locator('input[name="relation"][value="mother"]') }).click();
    await page.getByRole("combobox").first().fill("Okafor");
    await page.getByRole("option", { name: /Okafor/ }).click();
    await page.locator("input[name=first_name]").fill(baby.first);
    await page.locator("input[name=last_name]").fill(baby.last);
    await page.locator("input[name=date_of_birth]").fill(daysAgo(60));
    await page.locator("form button[type=submit]").click();
    await expectPath(page, /\/child-details$/);
    await visit(page, "child-details");
    // Every question may be skipped; the last Skip registers the baby.
    for (let step = 1; step <= 4; step++) {
      await page.locator(`[role=progressbar][aria-valuenow="${step * 25}"]`).waitFor();
      await page.locator(".wizard-actions .btn-ghost").click();
    }

    // The first visit to the dashboard: the disclaimer, then the quiz's instructions.
    await expectPath(page, /\/dashboard$/, 60_000);
    const disclaimer = page.getByRole("alertdialog");
    await disclaimer.waitFor();
    await visit(page, "disclaimer");
    await disclaimer.locator("label.checkbox").click();
    await disclaimer.locator(".btn-primary").click();
    await expectPath(page, /\/quiz-instructions$/);
    await visit(page, "quiz-instructions");
    // The quiz is passed through the API (its screens are the quiz's own suite's).
    await passQuizByApi(server, parent.email, PASSWORD);
    await page.goto("/dashboard");
    await page.getByRole("heading", { level: 1, name: new RegExp(parent.first) }).waitFor();
    await visit(page, "dashboard");

    // The monthly scan: the mode, the instructions, the capture page, the upload.
    await page.goto("/select-cap-mode");
    await page.locator("main h1").waitFor();
    await visit(page, "select-cap-mode");
    await page.goto("/instructions");
    await page.locator("main h1").waitFor();
    await visit(page, "instructions");
    await page.goto("/capture?cap=1");
    const photos = page.locator("label.file-btn input[type=file][multiple]");
    await photos.waitFor({ state: "attached" });
    await visit(page, "capture");
    await photos.setInputFiles(["good-1-typical.jpg", "good-2-brachy.jpg", "good-3-dolicho.jpg", "good-4-plagio.jpg", "good-5-plagio-brachy.jpg"].map((n) => path.join(SAMPLES, n)));
    const dialog = page.getByRole("dialog");
    // The five files listed (the capture's minimum), then the dialog's one primary action (upload).
    await expect.poll(() => dialog.locator("li").count(), { timeout: 30_000 }).toBe(5);
    await visit(page, "upload dialog");
    await dialog.locator(".btn-primary").click();
    const success = page.getByRole("alertdialog");
    await success.waitFor({ timeout: 120_000 }).catch(async (e: unknown) => {
      throw new Error(`No upload answer: ${(await page.locator("body").innerText()).slice(0, 1500)}`, { cause: e });
    });
    await visit(page, "upload success");
    await success.locator(".btn-primary").click();
    await expectPath(page, /\/uploads$/);
    await page.locator(".thumb").first().waitFor();
    await visit(page, "uploads");

    await reviewerPublishes(babyName);
    // The e-mail goes out from the job queue once the publish committed.
    await expect
      .poll(async () => (await server.outbox()).filter((m) => m.to.includes(parent.email)).map((m) => m.subject), { timeout: 90_000, interval: 1000 })
      .toContain(`El informe de la forma de la cabeza de ${babyName} está listo`);

    // The results and the PDF, read with pdftotext.
    await page.goto("/parent-results");
    const row = page.getByRole("row", { name: new RegExp(babyName) });
    await row.waitFor();
    await visit(page, "parent-results");
    const [download] = await Promise.all([page.waitForEvent("download"), row.locator(".download-btn").first().click()]);
    expect(download.suggestedFilename()).toBe("Result.pdf");
    const text = execFileSync("pdftotext", ["-layout", (await download.path())!, "-"]).toString().replace(/\s+/g, " ");
    for (const heading of ["Informe de evaluación de la forma de la cabeza", "Bebé", "Resultados", "Índice cefálico (IC)", "Evolución", "Importante", "Fotos aceptadas"]) {
      expect(text, heading).toContain(heading);
    }
    expect(text).toContain(babyName);
    expect(text).toContain("Este informe es una herramienta de detección calculada a partir de fotos. No es un diagnóstico ni reemplaza el examen de un médico.");
    for (const english of ["Head shape screening report", "Cranial Index", "not a diagnosis", "Results", "Date of birth", "Notes from the analysis"]) {
      expect(text, english).not.toContain(english);
    }
    await visit(page, "parent-results after the download");
    expect(errors, errors.join("\n")).toEqual([]);
    await context.close();
  }, 900_000);
});
