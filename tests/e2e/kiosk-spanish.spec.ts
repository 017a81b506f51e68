import { existsSync, mkdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api, type ApiUser, finishOnboarding, launchWithFakeCamera, signInApi } from "./helpers/capture.ts";
import { screensDir, seriousViolations } from "./helpers/browser.ts";
import { type CrownServer, DEMO, repoRoot, startCrown } from "./helpers/server.ts";

/**
 * The kiosk in Spanish (issue 21, ADR 88): on an English tablet, the nurse and the family pick Español for
 * their session; every screen from the pairing code to the upload speaks Spanish, the server's messages too
 * (the API is called as /api/v1/es), core's checks and the camera's frame hints as well; and when the
 * session ends (done, sign-out, idle timeout) the tablet is English again. A tablet whose browser reads
 * Spanish starts, and ends every session, in Spanish.
 */

const TABLET = { width: 1280, height: 800 };
const PORTRAIT = { width: 800, height: 1280 };
const PIN = "5173";
const BABY = { first: "Lucía", last: `Quiosco${Date.now().toString(36).slice(-4)}` };
const ATTRACT_EN = "Tap your name to sign in with your PIN.";
const ATTRACT_ES = "Toque su nombre para iniciar sesión con su PIN.";

let server: CrownServer;
let browser: Browser;
let physician: ApiUser;
let tablet: { context: BrowserContext; page: Page; errors: string[]; calls: string[] };

/** The kiosk is served from apps/kiosk/dist: built once when missing (as kiosk.spec.ts). */
const ensureKioskBuilt = () => {
  if (existsSync(path.join(repoRoot, "apps/kiosk/dist/index.html")) && process.env.CROWN_E2E_REBUILD !== "1") return;
  const r = spawnSync("pnpm", ["--filter", "@crown/kiosk", "build"], { cwd: repoRoot, stdio: "inherit" });
  if (r.status !== 0) throw new Error("Building apps/kiosk failed");
};

const openTablet = async (options: Parameters<Browser["newContext"]>[0] = {}) => {
  const context = await browser.newContext({ baseURL: server.url, viewport: TABLET, hasTouch: true, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const errors: string[] = [];
  const calls: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && errors.push(m.text()));
  page.on("request", (r) => r.url().includes("/api/v1/") && calls.push(new URL(r.url()).pathname));
  return { context, page, errors, calls };
};

/** No serious axe violation, and a screenshot in both orientations. */
const checked = async (page: Page, name: string) => {
  expect(await seriousViolations(page), name).toEqual([]);
  mkdirSync(screensDir, { recursive: true });
  for (const [label, size] of [
    ["landscape", TABLET],
    ["portrait", PORTRAIT],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(screensDir, `kiosk-es-${name}-${label}.png`) });
  }
  await page.setViewportSize(TABLET);
};

const language = (page: Page) => page.locator("html").getAttribute("lang");
const choose = (page: Page, name: "English" | "Español") => page.getByRole("button", { name, exact: true }).first().click();
const pressed = (page: Page, name: "English" | "Español") => page.getByRole("button", { name, exact: true }).first().getAttribute("aria-pressed");

const typePin = async (page: Page, pin: string, submit: string) => {
  for (const d of pin) await page.getByRole("button", { name: d, exact: true }).click();
  await page.getByRole("button", { name: submit, exact: true }).click();
};

/** The API calls made since `from`, by language prefix. */
const prefixes = (calls: string[], from: number) => [...new Set(calls.slice(from).map((c) => c.split("/")[3]))];

beforeAll(async () => {
  ensureKioskBuilt();
  server = await startCrown();
  browser = await launchWithFakeCamera();
  physician = await signInApi(server, DEMO.physician, server.password(DEMO.physician));
  await finishOnboarding(server, physician, true);
  const nurse = await signInApi(server, DEMO.staff, server.password(DEMO.staff));
  await api(server, "POST", "/user/kiosk-pin", nurse.token, { pin: PIN });
}, 300_000);

afterAll(async () => {
  await tablet?.context.close();
  await browser?.close();
  await server?.stop();
});

describe("the kiosk in Spanish", () => {
  test("a session in Spanish from the pairing code through capture and upload; the tablet is English again when it ends", async () => {
    const device = await api<{ pairing_code: string }>(server, "POST", "/kiosk/devices", physician.token, { name: "Sala 3" });
    tablet = await openTablet();
    const { page, calls } = tablet;
    await page.goto("/kiosk/");
    // An English tablet: the pairing screen in English until someone picks Español.
    await page.getByRole("heading", { name: "Enrol this tablet" }).waitFor();
    expect(await language(page)).toBe("en");
    expect(await pressed(page, "English")).toBe("true");
    await choose(page, "Español");
    await page.getByRole("heading", { name: "Registrar esta tableta" }).waitFor();
    expect(await language(page)).toBe("es");
    expect(await pressed(page, "Español")).toBe("true");
    await page.getByLabel("Código de vinculación").fill("ZZZZZZZZ");
    await page.getByRole("button", { name: "Registrar la tableta" }).click();
    // The server's refusal, in Spanish (the call went to /api/v1/es).
    await page.getByText("Este código de vinculación no es válido o ha caducado.").waitFor();
    expect(calls.filter((c) => c.endsWith("/kiosk/pair"))).toEqual(["/api/v1/es/kiosk/pair"]);
    await checked(page, "pairing");
    await page.getByLabel("Código de vinculación").fill(device.pairing_code);
    await page.getByRole("button", { name: "Registrar la tableta" }).click();

    // Enrolled: the attract screen, where each session starts in the tablet's own language.
    await page.getByText(ATTRACT_EN).waitFor();
    expect(await language(page)).toBe("en");
    await choose(page, "Español");
    await page.getByText(ATTRACT_ES).waitFor();
    await page.getByRole("heading", { name: "Crown: escaneo de la forma de la cabeza" }).waitFor();
    await checked(page, "attract");
    const sessionStart = calls.length;
    await page.getByRole("button", { name: "Nora Nurse" }).click();
    await page.getByRole("heading", { name: "Hola, Nora Nurse" }).waitFor();
    await page.getByText("Escriba su PIN del quiosco").waitFor();
    await typePin(page, "0000", "Entrar");
    await page.getByText("El miembro del personal o el PIN no son correctos.").waitFor();
    await checked(page, "pin-pad");
    await typePin(page, PIN, "Entrar");

    // The patient: core's own checks of the form in Spanish, the server's answers too.
    await page.getByRole("heading", { name: "Elija al paciente" }).waitFor();
    await page.getByText("Sesión iniciada: Nora Nurse").waitFor();
    await page.getByRole("button", { name: "Agregar paciente" }).first().click();
    await page.getByRole("button", { name: "Agregar paciente" }).last().click();
    await page.getByText("El campo Nombre es obligatorio").waitFor();
    await checked(page, "add-patient");
    await page.getByLabel("Nombre", { exact: true }).fill(BABY.first);
    await page.getByLabel("Apellido", { exact: true }).fill(BABY.last);
    const born = new Date(Date.now() - 60 * 86400_000);
    const bornDay = `${born.getFullYear()}-${String(born.getMonth() + 1).padStart(2, "0")}-${String(born.getDate()).padStart(2, "0")}`;
    await page.getByLabel("Fecha de nacimiento").fill(bornDay);
    await page.locator('select[name="gender"]').selectOption("female");
    await page.getByRole("button", { name: "Agregar paciente" }).last().click();
    await page.getByRole("heading", { name: `${BABY.first} ${BABY.last}` }).waitFor();
    // The date of birth as every Spanish screen writes a day (core's formatDay, day first; issue 46), not the server's YYYY-MM-DD.
    const day = new Intl.DateTimeFormat("es-US", { day: "2-digit", month: "2-digit", year: "numeric" }).format(born);
    await page.getByText(`Nació el ${day}`).waitFor();
    await page.getByText("La captura automática toma 10 fotos buenas; se necesitan al menos 5.").waitFor();
    await checked(page, "patient-chosen");

    // Capture: the bar, its count and core's frame hints in Spanish; the choice is offered there too.
    await page.getByRole("button", { name: "Encender la cámara" }).click();
    await page.getByTestId("capture").waitFor();
    expect(await pressed(page, "Español")).toBe("true");
    // A good frame's hint and the count beside it (read together: Auto Capture moves on by itself at 10).
    await page.waitForFunction(
      () =>
        document.querySelector(".capture-status")?.textContent === "Buena imagen: no se mueva" &&
        /^Captura automática: [1-9]\d* \/ 10 fotos buenas$/.test(document.querySelector('[data-testid="shot-count"]')?.textContent ?? ""),
      undefined,
      { polling: "raf", timeout: 150_000 },
    );
    await page.screenshot({ path: path.join(screensDir, "kiosk-es-capture-landscape.png") });
    await page.getByRole("heading", { name: `Revise las fotos de ${BABY.first} ${BABY.last}` }).waitFor({ timeout: 150_000 });
    await page.getByText("10 fotos; quite las que hayan salido mal. Se necesitan al menos 5.").waitFor();
    await page.getByRole("img", { name: "Foto 1", exact: true }).waitFor();
    await checked(page, "review");
    await page.getByRole("button", { name: "Quitar la foto 10" }).click();
    await page.getByRole("button", { name: "Subir 9 fotos" }).click();
    await page.getByRole("heading", { name: "Imágenes subidas correctamente" }).waitFor({ timeout: 120_000 });
    await page.getByText("El médico recibirá el informe. No queda nada del paciente en esta tableta.").waitFor();
    await checked(page, "done");
    // Every call of the session spoke Spanish.
    expect(prefixes(calls, sessionStart)).toEqual(["es"]);

    // The session is over: the next family finds the tablet in English.
    await page.getByRole("button", { name: "Siguiente paciente" }).click();
    await page.getByText(ATTRACT_EN).waitFor();
    expect(await language(page)).toBe("en");
    expect(await pressed(page, "English")).toBe("true");
    const afterSession = calls.length;
    await page.getByRole("button", { name: "Nora Nurse" }).click();
    await page.getByRole("heading", { name: "Hello, Nora Nurse" }).waitFor();
    await page.getByRole("button", { name: "Back" }).click();
    await page.waitForTimeout(500);
    expect(prefixes(calls, afterSession).filter((p) => p !== "en")).toEqual([]);
    // Nothing but the device credential on the tablet: the language is the session's, in memory.
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(["crown.kiosk.device"]);
    expect(tablet.errors).toEqual([]);
  }, 600_000);

  test("a sign-out and the idle timeout end the Spanish session too", async () => {
    const { page } = tablet;
    await choose(page, "Español");
    await page.getByRole("button", { name: "Nora Nurse" }).click();
    await typePin(page, PIN, "Entrar");
    await page.getByRole("heading", { name: "Elija al paciente" }).waitFor();
    await page.getByRole("button", { name: "Cerrar sesión" }).click();
    await page.getByText(ATTRACT_EN).waitFor();
    expect(await language(page)).toBe("en");

    // Unattended (4 s here): the session ends and so does its language; so does a choice made with no session.
    await page.goto("/kiosk/?idle=4");
    await page.getByText(ATTRACT_EN).waitFor();
    await choose(page, "Español");
    await page.getByRole("button", { name: "Nora Nurse" }).click();
    await typePin(page, PIN, "Entrar");
    await page.getByRole("heading", { name: "Elija al paciente" }).waitFor();
    await page.getByText(ATTRACT_EN).waitFor({ timeout: 15_000 });
    expect(await language(page)).toBe("en");
    await choose(page, "Español");
    await page.getByText(ATTRACT_ES).waitFor();
    await page.getByText(ATTRACT_EN).waitFor({ timeout: 15_000 });
    expect(tablet.errors).toEqual([]);
  }, 180_000);

  test("a tablet whose browser reads Spanish starts in Spanish, and is Spanish again after an English session", async () => {
    const spanish = await openTablet({ locale: "es-US", storageState: await tablet.context.storageState() });
    const { page } = spanish;
    try {
      await page.goto("/kiosk/");
      await page.getByText(ATTRACT_ES).waitFor();
      expect(await language(page)).toBe("es");
      expect(await pressed(page, "Español")).toBe("true");
      await choose(page, "English");
      await page.getByText(ATTRACT_EN).waitFor();
      await page.getByRole("button", { name: "Nora Nurse" }).click();
      await typePin(page, PIN, "Sign in");
      await page.getByRole("heading", { name: "Choose the patient" }).waitFor();
      await checked(page, "english-session-on-spanish-tablet");
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByText(ATTRACT_ES).waitFor();
      expect(await language(page)).toBe("es");
      expect(spanish.errors).toEqual([]);
    } finally {
      await spanish.context.close();
    }
  }, 180_000);
});
