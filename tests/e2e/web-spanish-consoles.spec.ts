import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright";
import { describe, expect, test } from "vitest";
import { DESKTOP, PHONE, seriousViolations, sidewaysScroll, uniqueEmail } from "./helpers/browser.ts";
import { api, finishOnboarding, signInApi } from "./helpers/capture.ts";
import { apiToken, expectPath, passQuizByApi } from "./helpers/flows.ts";
import { callApi } from "./helpers/flows.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO, repoRoot } from "./helpers/server.ts";
import { passSecondStep } from "./helpers/second-step.ts";

/** Issue 21: the practice screens and the review and admin consoles in Spanish, their tables usable on a phone. */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

const REVIEWER = "reviewer@demo.crown";

/**
 * A Spanish account (its language chosen through the API: signed in, the portal speaks the account's language)
 * in a browser that reads Spanish first, signed in through the Spanish form.
 */
const spanishTab = async (email: string, landing: RegExp) => {
  const account = await signInApi(server, email, server.password(email));
  await api(server, "POST", "/user/language", account.token, { language: "es" });
  const context = await browser.newContext({ baseURL: server.url, locale: "es-US", viewport: DESKTOP });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña").fill(server.password(email));
  await page.getByRole("button", { name: "Iniciar sesión" }).click();
  // The second step (or setting it up on a first sign-in; issue 44).
  await passSecondStep(page, email);
  await expectPath(page, landing);
  return { page, errors, close: () => context.close() };
};

/** At phone width every column is on screen: a stacked table, nothing to scroll sideways. */
const fitsPhone = async (page: Page) => {
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(200);
  expect(await sidewaysScroll(page)).toEqual([]);
  await page.setViewportSize(DESKTOP);
};


describe("the practice screens in Spanish", () => {
  test("a physician's My Patients and My Staff: Spanish headers, form, toasts and dates; cards on a phone; axe", async () => {
    await passQuizByApi(server, DEMO.physician, server.password(DEMO.physician));
    await finishOnboarding(server, await signInApi(server, DEMO.physician, server.password(DEMO.physician)), true);
    const { page, errors, close } = await spanishTab(DEMO.physician, /\/dashboard$/);

    await page.goto("/my-patients");
    await page.getByRole("heading", { level: 1, name: "Mis pacientes" }).waitFor();
    await page.getByRole("button", { name: "Agregar", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Agregar paciente" }).waitFor();
    await page.getByText(/^No mayor de 30 meses \(desde el \d{2}\/\d{2}\/\d{4}\)$/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Nombre", { exact: true }).fill("Mateo");
    await page.getByLabel("Apellido", { exact: true }).fill("Ruiz");
    await page.getByLabel("Fecha de nacimiento").fill(new Date(Date.now() - 60 * 86400_000).toISOString().slice(0, 10));
    await page.getByText("Femenino", { exact: true }).waitFor();
    await page.getByText("Masculino", { exact: true }).click();
    await page.getByRole("button", { name: "Agregar paciente" }).click();
    await page.getByText("Los datos del paciente se agregaron correctamente").first().waitFor();

    const row = page.getByRole("row", { name: /Mateo Ruiz/ });
    await row.waitFor();
    for (const header of ["Nombre", "Fecha de nacimiento", "Correo electrónico", "Afección previa", "Acción"]) await page.getByRole("columnheader", { name: header, exact: true }).waitFor();
    // The date of birth as every Spanish screen writes a day (day first, core's formatDay; issue 46); the gender in Spanish.
    await row.getByText(/^\d{2}\/\d{2}\/\d{4}$/).waitFor();
    await row.getByText("(Masculino)").waitFor();
    await row.getByRole("button", { name: "Editar a Mateo Ruiz" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await fitsPhone(page);

    await page.getByRole("button", { name: "Eliminar a Mateo Ruiz" }).click();
    await page.getByRole("dialog", { name: "Eliminar paciente" }).getByText("Para eliminar a un paciente, comuníquese con el servicio de atención al cliente").waitFor();
    await page.getByRole("button", { name: "Aceptar" }).click();

    await page.goto("/my-staff");
    await page.getByRole("heading", { level: 1, name: "Mi personal" }).waitFor();
    await page.getByRole("button", { name: "Agregar", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Agregar personal" }).waitFor();
    await page.getByRole("button", { name: "Agregar personal" }).click();
    await page.getByText("El correo electrónico es obligatorio").waitFor();
    const nurse = uniqueEmail("enfermera");
    await page.getByLabel("Correo electrónico").fill(nurse);
    await page.getByRole("button", { name: "Agregar personal" }).click();
    await page.getByText("El miembro del personal se agregó correctamente").first().waitFor();
    const staffRow = page.getByRole("row", { name: new RegExp(nurse.replace(/[.]/g, "\\.")) });
    await staffRow.getByRole("cell", { name: "Enfermería", exact: true }).waitFor();
    await staffRow.getByText("Invitación pendiente").waitFor();
    await page.getByRole("columnheader", { name: "Tipo de personal" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await fitsPhone(page);

    await page.goto("/kiosk-settings");
    await page.getByRole("heading", { level: 1, name: "Quiosco" }).waitFor();
    await page.getByRole("heading", { name: "Mi PIN del quiosco" }).waitFor();
    await page.getByRole("columnheader", { name: "Última conexión" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors, errors.join("\n")).toEqual([]);
    await close();
  }, 240_000);
});

describe("the consoles in Spanish", () => {
  test("the review queue and a report: statuses, figures, the photo verdicts and the decision panel in Spanish; axe", async () => {
    // The demo parent's baby gets three photos of different heads: they disagree, so the flag and its count show.
    const token = await apiToken(server, DEMO.parent, server.password(DEMO.parent));
    const babies = (await callApi(server, token, "GET", "/user/profile")).babies as Array<{ identifier: string; name: string }>;
    const report = (await callApi(server, token, "POST", "/report/prepare", { baby_identifier: babies[0]!.identifier, analysis_type: "head_ci_cvai_analysis" })).report_identifier as string;
    const form = new FormData();
    form.append("report_identifier", report);
    for (const f of ["good-1-typical.jpg", "good-2-brachy.jpg", "good-3-dolicho.jpg"]) {
      form.append("attachments[]", new Blob([readFileSync(path.join(repoRoot, "models/head-contour/samples", f))], { type: "image/jpeg" }), f);
    }
    await callApi(server, token, "POST", "/report/upload", form);
    await callApi(server, token, "POST", "/report/finalize", { report_identifier: report });
    await expect.poll(async () => (await callApi(server, token, "GET", `/report/${report}`)).status, { timeout: 150_000, interval: 1000 }).toBe("analyzed");

    const { page, errors, close } = await spanishTab(REVIEWER, /\/review$/);
    await page.getByRole("heading", { level: 1, name: "Cola de revisión" }).waitFor();
    await page.getByText("Informes que esperan a un revisor, los más antiguos primero.").waitFor();
    for (const header of ["Bebé", "Edad", "Enviado", "Estado", "IC", "CVAI", "Anteriores"]) await page.getByRole("columnheader", { name: header, exact: true }).waitFor();
    const row = page.getByRole("row", { name: new RegExp(babies[0]!.name) });
    await row.getByRole("cell", { name: "analizado", exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await fitsPhone(page);

    await page.goto(`/review/${report}`);
    await page.getByRole("link", { name: "← Cola de revisión" }).waitFor();
    await page.getByText(/^Estado:/).waitFor();
    await page.getByText("IC (mediana, rango)").waitFor();
    const flag = page.locator(".agreement-flag");
    await flag.getByText("Las fotos aceptadas no concuerdan").waitFor();
    await flag.getByText(/quedan? \d+ por confirmar/).waitFor();
    const cards = page.locator(".review-card");
    await cards.first().getByText(/^Automático: /).waitFor();
    await cards.first().locator(".pill").getByText(/^(Aceptada|Rechazada) automáticamente$/).waitFor();
    await page.getByRole("heading", { name: "Decisión" }).waitFor();
    await page.getByLabel("Nota del revisor").waitFor();
    await page.getByRole("button", { name: "Publicar" }).waitFor();
    await page.getByRole("button", { name: "Vista previa del PDF" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Nota del revisor").fill("Fotos claras.");
    await page.getByRole("button", { name: "Guardar nota" }).click();
    await page.getByText("Nota guardada").first().waitFor();
    expect(errors, errors.join("\n")).toEqual([]);
    await close();
  }, 300_000);

  test("the admin console: every section's heading, table headers and statuses in Spanish; cards on a phone; axe", async () => {
    const { page, errors, close } = await spanishTab(DEMO.admin, /\/admin$/);
    await page.getByRole("heading", { level: 1, name: "Consola de administración" }).waitFor();
    for (const heading of ["Aprobaciones pendientes", "Consultorios en espera de verificación", "Usuarios", "Médicos", "Dispositivos de quiosco", "Solicitudes de eliminación de cuenta", "Registro de auditoría"]) {
      await page.getByRole("heading", { level: 2, name: heading, exact: true }).waitFor();
    }
    await page.getByRole("region", { name: "Dispositivos de quiosco" }).getByRole("link", { name: "/kiosk/", exact: true }).waitFor();
    const users = page.getByRole("region", { name: "Usuarios", exact: true });
    await users.getByRole("columnheader", { name: "Desde" }).waitFor();
    // Account statuses and types by their Spanish names.
    await users.getByRole("cell", { name: "Activa", exact: true }).first().waitFor();
    await users.getByRole("cell", { name: /^(Madre o padre|Proveedor de salud|Revisor|Administrador)$/ }).first().waitFor();
    const audit = page.getByRole("region", { name: "Registro de auditoría", exact: true });
    await audit.getByRole("columnheader", { name: "Fecha y hora" }).waitFor();
    // The newest entry (this sign-in) is today's, its day first in Spanish.
    const today = new Date();
    const p = (n: number) => String(n).padStart(2, "0");
    expect(await audit.locator("tbody tr td").first().innerText()).toMatch(new RegExp(`^${p(today.getDate())}/${p(today.getMonth() + 1)}/${today.getFullYear()} \\d{2}:\\d{2}:\\d{2}$`));
    expect(await seriousViolations(page)).toEqual([]);
    await fitsPhone(page);
    expect(errors, errors.join("\n")).toEqual([]);
    await close();
  }, 180_000);
});
