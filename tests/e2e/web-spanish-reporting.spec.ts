import type { Browser, Locator, Page } from "playwright";
import { describe, expect, test } from "vitest";
import { seriousViolations } from "./helpers/browser.ts";
import { api, finishOnboarding, publishSampleReport, signInApi } from "./helpers/capture.ts";
import { apiToken, PNG_1PX, passQuizByApi } from "./helpers/flows.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO } from "./helpers/server.ts";

/** Issue 21: a Spanish-reading parent takes the quiz, reads results and uploads in Spanish (areas quiz, reporting, capture). */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

/** The demo parent, a Spanish account (its portal follows it on sign-in), past the first-login chores; one report published. */
const spanishParentWithResult = async () => {
  const parent = await signInApi(server, DEMO.parent, server.password(DEMO.parent));
  await api(server, "POST", "/user/language", parent.token, { language: "es" });
  await finishOnboarding(server, parent, false);
  await passQuizByApi(server, DEMO.parent, server.password(DEMO.parent));
  const token = await apiToken(server, DEMO.parent, server.password(DEMO.parent));
  await publishSampleReport(server, token);
};

const signInInSpanish = async (page: Page) => {
  await page.goto("/");
  await page.getByLabel("Correo electrónico").fill(DEMO.parent);
  await page.getByLabel("Contraseña").fill(server.password(DEMO.parent));
  await page.getByRole("button", { name: "Iniciar sesión" }).click();
  await page.waitForURL((u) => u.pathname !== "/");
};

/** Longer Spanish words stay inside their buttons (looked up inside `scope`: the header has its own "Subir"). */
const fitsItsButton = (scope: Locator, name: string) => scope.getByRole("button", { name, exact: true }).evaluate((b) => b.scrollWidth <= b.clientWidth + 1);

describe("results, uploads and the quiz in Spanish", () => {
  test("a Spanish parent reads the results, the uploads and the upload dialog in Spanish", async () => {
    await spanishParentWithResult();
    const context = await browser.newContext({ baseURL: server.url, locale: "es-US" });
    const page = await context.newPage();
    await signInInSpanish(page);

    await page.goto("/parent-results");
    await page.getByRole("heading", { level: 1, name: "Resultados" }).waitFor();
    await page.getByText("Aquí están todos los resultados.").waitFor();
    // The row's date in Spanish digits (day first), the download and the EHR export named in Spanish.
    await page.getByRole("columnheader", { name: "Fecha de subida" }).waitFor();
    await page.getByRole("cell", { name: /^\d{2}\/\d{2}\/\d{4}$/ }).first().waitFor();
    await page.getByRole("button", { name: /^Descargar PDF: el resultado de .+, subido el / }).first().waitFor();
    await page.getByRole("button", { name: /^Archivo para expedientes de salud \(FHIR\)/ }).first().waitFor();
    expect(await page.getByText("Uploaded on").count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto("/uploads");
    await page.getByRole("heading", { level: 1, name: "Mis subidas" }).waitFor();
    await page.getByText(/ · Subido el \d{2}\/\d{2}\/\d{4}/).first().waitFor();
    await page.getByText("Resultado listo").first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The capture page: its words, then photos chosen from the device open the upload dialog.
    await page.goto("/capture?cap=1");
    await page.getByRole("heading", { level: 1, name: "Captura con el gorro" }).waitFor();
    await page.getByRole("heading", { name: "Elija cómo hacer la captura" }).waitFor();
    await page.getByRole("link", { name: "Lea las instrucciones" }).waitFor();
    await page.getByLabel("Elegir fotos").setInputFiles({ name: "cabeza.png", mimeType: "image/png", buffer: PNG_1PX });
    const dialog = page.getByRole("dialog", { name: "Subir fotos y video" });
    await dialog.waitFor();
    await dialog.getByText(/^Agregue al menos \d+ fotos y un video corto de .+\. Hasta 20 archivos, de 100 MB cada uno;/).waitFor();
    // Counted in Spanish (an ICU plural), the size in US Spanish digits.
    await dialog.getByText(/^1 foto, 0 videos · 0\.00 MB$/).waitFor();
    await dialog.getByText("Listo", { exact: true }).waitFor();
    await dialog.getByRole("button", { name: "Subir", exact: true }).click();
    await dialog.getByText(/^Elija al menos \d+ fotos y un video corto\.$/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    for (const name of ["Subir", "Cancelar", "Quitar cabeza.png"]) expect(await fitsItsButton(dialog, name), name).toBe(true);
    // A file the rules refuse: core's message, in Spanish.
    await dialog.getByLabel("Elegir archivos").setInputFiles({ name: "notas.txt", mimeType: "text/plain", buffer: Buffer.from("hola") });
    await dialog.getByText("Solo se pueden subir archivos con formato .jpg, .jpeg, .png, .mov o .mp4").waitFor();
    await dialog.getByRole("button", { name: "Cancelar", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    await context.close();
  });

  test("the quiz speaks Spanish: its instructions, questions, verdicts and reasons", async () => {
    const context = await browser.newContext({ baseURL: server.url, locale: "es-US" });
    const page = await context.newPage();
    await signInInSpanish(page);
    await page.goto("/quiz-instructions");
    await page.getByRole("heading", { level: 1, name: "Antes del cuestionario: cómo hacer la captura con el gorro" }).waitFor();
    await page.getByRole("button", { name: "Ponga la calcomanía" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Siguiente" }).click();

    const pool = (await (await fetch(`${server.url}/quiz/manifest.json`)).json()) as { cap: Array<{ image: string; good: boolean; reason: string }> };
    const byImage = new Map(pool.cap.map((q) => [q.image, q]));
    for (let i = 1; i <= 10; i++) {
      await page.getByRole("heading", { name: `Pregunta ${i}/10` }).waitFor();
      await page.getByText("¿Esta foto es lo bastante buena para medir la cabeza?").waitFor();
      const src = new URL((await page.locator("img.quiz-image").getAttribute("src")) ?? "", server.url).pathname;
      const question = byImage.get(src)!;
      expect(await page.locator("img.quiz-image").getAttribute("alt")).toBe(`Foto ${i} de 10 del cuestionario: la cabeza de un bebé vista desde arriba`);
      // Right on odd questions, wrong on even ones: both verdicts show.
      const right = i % 2 === 1;
      await page.getByRole("button", { name: question.good === right ? "BUENA" : "MALA", exact: true }).click();
      const feedback = page.locator(".quiz-feedback");
      await feedback.waitFor();
      await feedback.getByText(right ? "¡Correcto!" : /^No exactamente: esta imagen (sí|no) sirve para hacer una medición\.$/).waitFor();
      // The photo's reason in Spanish (core's catalogue), never the manifest's English.
      const reason = await feedback.locator("p").nth(1).innerText();
      expect(reason).not.toBe(question.reason);
      expect(reason).toMatch(/[áéíóúñ¿¡]|^(La |No se|El |Se |Imagen buena)/);
      if (i === 2) expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: i < 10 ? "Siguiente pregunta" : "Ver mi resultado" }).click();
    }
    await page.getByRole("heading", { level: 1, name: "¡Más suerte la próxima vez!" }).waitFor();
    await page.getByText("Obtuvo 5 de 10.").waitFor();
    await page.getByRole("link", { name: "¡Inténtelo de nuevo!" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
