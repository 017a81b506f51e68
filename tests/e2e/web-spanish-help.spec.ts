import type { Browser, Page } from "playwright";
import { describe, expect, test } from "vitest";
import { PHONE, seriousViolations, sidewaysScroll, uniqueEmail } from "./helpers/browser.ts";
import { apiToken } from "./helpers/flows.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO } from "./helpers/server.ts";
import { passSecondStep } from "./helpers/second-step.ts";

/** Issue 21: the help center, the legal pages, the support chat and the support inbox in Spanish. */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

/** A tab whose browser reads Spanish first (the portal follows it on a first visit); its console errors are kept. */
const spanishTab = async (viewport = { width: 1280, height: 800 }) => {
  const context = await browser.newContext({ baseURL: server.url, locale: "es-US", viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return { context, page, errors };
};

/** Signs a demo account in through the Spanish form; the account's own language (which the portal takes on sign-in) is Spanish first. */
const signInInSpanish = async (page: Page, email: string) => {
  const token = await apiToken(server, email, server.password(email));
  const saved = await fetch(`${server.url}/api/v1/en/user/language`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ language: "es" }),
  });
  expect(saved.status).toBe(200);
  await page.goto("/");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña").fill(server.password(email));
  await page.getByRole("button", { name: "Iniciar sesión" }).click();
  await passSecondStep(page, email);
  await page.waitForURL((u) => u.pathname !== "/", { timeout: 20_000 });
};

/** No word of the page's English is left where the Spanish should be (a key shown as is, or the English text). */
const noEnglish = async (page: Page, english: ReadonlyArray<string>) => {
  const text = await page.locator("body").innerText();
  for (const words of english) expect(text, words).not.toContain(words);
};

describe("help, legal and chat in Spanish", () => {
  test("the legal pages and the referral-code help read in Spanish, with the revision date in Spanish", async () => {
    const { context, page, errors } = await spanishTab();
    await page.goto("/privacy-policy");
    await page.getByRole("heading", { level: 1, name: "Política de privacidad" }).waitFor();
    await page.getByText("Nunca vendemos ni alquilamos información personal o de salud a nadie.").waitFor();
    await page.getByText("Última actualización: 22 de noviembre de 2026").waitFor();
    await page.getByRole("link", { name: "página de eliminación de cuentas" }).waitFor();
    await page.getByRole("link", { name: "Volver a Iniciar sesión" }).waitFor();
    await noEnglish(page, ["Privacy Policy", "What we collect", "Last updated", "privacy."]);
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto("/terms-of-service");
    await page.getByRole("heading", { level: 1, name: "Términos del servicio" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "Una herramienta de detección, no un diagnóstico" }).waitFor();
    await page.getByText(/No diagnostica, trata ni previene ninguna afección/).waitFor();
    await noEnglish(page, ["Terms of Service", "screening aid", "terms."]);
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto("/help/referral-code");
    await page.getByRole("heading", { level: 1, name: "Cómo encontrar su código de referencia" }).waitFor();
    await page.getByText("Código de referencia (opcional)").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors, errors.join("\n")).toEqual([]);
    await context.close();
  });

  test("a visitor on the sign-in page chats in Spanish, on a phone", async () => {
    const { context, page, errors } = await spanishTab(PHONE);
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Iniciar sesión" }).waitFor();
    await page.getByRole("button", { name: "Chat con soporte" }).click();
    const panel = page.getByRole("dialog", { name: "Chat con el soporte de Crown" });
    await panel.getByText("¿Tiene preguntas antes de registrarse? Escríbanos.").waitFor();
    await panel.getByLabel("Su correo electrónico (también le respondemos allí)").fill(uniqueEmail("visitante"));
    await panel.getByLabel("Su nombre (opcional)").fill("Rosa");
    await panel.getByLabel("Mensaje para el soporte de Crown").fill("¿Envían kits a Puerto Rico?");
    await panel.getByRole("button", { name: "Enviar" }).click();
    await panel.getByTestId("chat-message").filter({ hasText: "¿Envían kits a Puerto Rico?" }).getByText("Usted").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // The longer Spanish words stay inside the panel's buttons.
    const fits = await panel.getByRole("button", { name: "Enviar" }).evaluate((b) => b.scrollWidth <= b.clientWidth + 1);
    expect(fits).toBe(true);
    expect(errors, errors.join("\n")).toEqual([]);
    await context.close();
  });

  test("a parent reads the help center's FAQs and workflow in Spanish and writes to support, who answer from a Spanish inbox", async () => {
    const parent = await spanishTab();
    const { page } = parent;
    await signInInSpanish(page, DEMO.parent);
    await page.goto("/help-center");
    await page.getByRole("heading", { level: 1, name: "Centro de ayuda" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "Preguntas frecuentes" }).waitFor();
    expect(await page.locator("ol.faq > li").count()).toBe(10);
    await page.getByRole("button", { name: "¿Qué significan IC y CVAI?" }).click();
    await page.getByText(/índice cefálico \(IC\).*Es una herramienta de detección, no un diagnóstico/).waitFor();
    await page.getByRole("button", { name: "¿Qué tan preciso es Crown?" }).click();
    await page.getByText(/no fotos de bebés reales/).waitFor();
    await page.getByRole("button", { name: "¿Qué necesito?" }).click();
    await page.getByRole("link", { name: "Vea las instrucciones" }).waitFor();
    await page.getByRole("tab", { name: "Con su proveedor de salud" }).click();
    await page.getByRole("img", { name: "Cómo funciona con su proveedor de salud" }).waitFor();
    await noEnglish(page, ["Frequently asked questions", "Who is Crown for?", "With your provider", "parentFaq.", "center."]);
    expect(await seriousViolations(page)).toEqual([]);
    // The longer Spanish questions and tabs wrap on a phone instead of pushing the page sideways.
    await page.setViewportSize(PHONE);
    expect(await sidewaysScroll(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Both diagrams' Spanish steps fit inside their boxes (SVG text does not wrap).
    await page.goto("/workflow");
    await page.getByRole("heading", { level: 1, name: "Cómo funciona" }).waitFor();
    await page.getByRole("img", { name: "Cómo funciona para el proveedor de salud" }).waitFor();
    const overflowing = await page.locator("svg.flow-diagram text").evaluateAll((texts) =>
      (texts as SVGTextElement[]).filter((t) => t.getBBox().x + t.getBBox().width > 426).map((t) => t.textContent),
    );
    expect(overflowing).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto("/help-center");
    await page.getByRole("heading", { level: 1, name: "Centro de ayuda" }).waitFor();

    // The chat widget, in Spanish.
    await page.getByRole("button", { name: /^Chat con soporte/ }).click();
    const panel = page.getByRole("dialog", { name: "Chat con el soporte de Crown" });
    await panel.getByRole("heading", { name: "Soporte de Crown" }).waitFor();
    await panel.getByPlaceholder("Escriba un mensaje…").waitFor();
    await panel.getByText("Adjuntar imagen").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await panel.getByLabel("Mensaje para el soporte de Crown").fill("¿Cada cuánto subo fotos?");
    await panel.getByRole("button", { name: "Enviar" }).click();
    await panel.getByTestId("chat-message").filter({ hasText: "¿Cada cuánto subo fotos?" }).getByText("Usted").waitFor();

    const support = await spanishTab();
    await signInInSpanish(support.page, DEMO.admin);
    await support.page.goto("/support");
    await support.page.getByRole("heading", { level: 1, name: "Bandeja de soporte" }).waitFor();
    const row = support.page.getByTestId("support-conversation").filter({ hasText: "¿Cada cuánto subo fotos?" });
    await row.getByText("1 sin leer").waitFor();
    await row.click();
    const thread = support.page.getByRole("region", { name: "Conversación" });
    await support.page.getByRole("complementary", { name: "Sobre este usuario" }).getByRole("heading", { name: "Bebés" }).waitFor();
    await thread.getByRole("button", { name: "Asignármela" }).waitFor();
    expect(await seriousViolations(support.page)).toEqual([]);
    await thread.getByLabel("Respuesta").fill("Una vez al mes, hasta el mes 7.");
    await thread.getByRole("button", { name: "Enviar" }).click();
    await panel.getByText("Una vez al mes, hasta el mes 7.").waitFor({ timeout: 15_000 });
    await thread.getByText("Visto").waitFor({ timeout: 15_000 });
    expect(parent.errors, parent.errors.join("\n")).toEqual([]);
    expect(support.errors, support.errors.join("\n")).toEqual([]);
    await parent.context.close();
    await support.context.close();
  });
});
