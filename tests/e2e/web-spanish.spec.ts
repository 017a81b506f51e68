import type { Browser } from "playwright";
import { describe, expect, test } from "vitest";
import { openTab, PHONE, seriousViolations, uniqueEmail } from "./helpers/browser.ts";
import { apiToken, expectPath, passQuizByApi, signInThroughForm } from "./helpers/flows.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO } from "./helpers/server.ts";

/** Issue 21: a Spanish-reading parent finds Crown in Spanish, from the browser's language through sign-up to sign-in. */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

const PASSWORD = "Sol-de-mayo-42";

describe("Crown in Spanish", () => {
  test("a browser set to Spanish gets the sign-in page in Spanish; the switcher changes it both ways", async () => {
    const context = await browser.newContext({ baseURL: server.url, locale: "es-US" });
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Iniciar sesión" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    expect(await seriousViolations(page)).toEqual([]);
    // A wrong password: the server's answer in Spanish (the API is called as /api/v1/es).
    await page.getByLabel("Correo electrónico").fill("nadie@example.test");
    await page.getByLabel("Contraseña").fill("Equivocada-1!");
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await page.getByText("Estos datos de acceso no coinciden con nuestros registros.").first().waitFor();
    // The browser's own validation, in Spanish too.
    await page.getByLabel("Correo electrónico").fill("");
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await page.getByText("El correo electrónico es obligatorio").waitFor();

    await page.getByLabel("Idioma").selectOption("en");
    await page.getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    await page.getByLabel("Language").selectOption("es");
    await page.getByRole("heading", { level: 1, name: "Iniciar sesión" }).waitFor();
    // The choice is kept on this browser.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Iniciar sesión" }).waitFor();
    await context.close();
  });

  test("a parent signs up in Spanish, gets the Spanish verification e-mail, and signs in as a Spanish account", async () => {
    const context = await browser.newContext({ baseURL: server.url, locale: "es-US" });
    const page = await context.newPage();
    const email = uniqueEmail("lucia");
    await page.goto("/sign-up");
    await page.getByRole("heading", { level: 1, name: "Cree su cuenta" }).waitFor();
    await page.getByText("Padre o madre", { exact: true }).click();
    await page.getByRole("button", { name: "Continuar" }).click();
    await page.getByRole("heading", { level: 1, name: "Registrarse como Padre o madre" }).waitFor();
    // Every field's message in Spanish.
    await page.getByRole("button", { name: "Registrarse" }).click();
    await page.getByText("El campo Nombre es obligatorio").first().waitFor();
    await page.getByText("Acepte los términos, las condiciones y la política de privacidad").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // Longer Spanish words stay inside their buttons.
    for (const name of ["Registrarse", "← Elegir otro perfil"]) {
      const fits = await page.getByRole("button", { name }).evaluate((b) => b.scrollWidth <= b.clientWidth + 1);
      expect(fits, name).toBe(true);
    }

    await page.getByLabel("Nombre", { exact: true }).fill("Lucía");
    await page.getByLabel("Apellido").fill("Pérez");
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirmar contraseña").fill(PASSWORD);
    await page.getByLabel("Número de celular").fill("5551234567");
    await page.getByText("Acepto los").click();
    await page.getByRole("button", { name: "Registrarse" }).click();
    await page.waitForURL(/\/signup-confirmation$/);
    await page.getByRole("heading", { level: 1, name: "¡Gracias por registrarse!" }).waitFor();
    await page.getByText("Gracias por registrarse. Revise su bandeja de entrada y verifique su correo electrónico").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const link = await server.waitForLink(email, "/verify-email");
    const mail = (await server.outbox()).find((m) => m.to.includes(email))!;
    expect(mail.subject).toBe("Verifique su correo electrónico para Crown");
    expect(mail.text).toContain("Hola, Lucía:");
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByText("Su correo electrónico se verificó correctamente. Inicie sesión.").waitFor();

    await page.goto("/");
    await page.getByLabel("Correo electrónico").fill(email);
    await page.getByLabel("Contraseña").fill(PASSWORD);
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await page.waitForURL((u) => u.pathname !== "/");
    // The account is Spanish: the profile says so (its e-mails and reports follow it).
    const signIn = await (
      await fetch(`${server.url}/api/v1/en/user/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: Buffer.from(PASSWORD).toString("base64") }),
      })
    ).json();
    const profile = await (await fetch(`${server.url}/api/v1/en/user/profile`, { headers: { authorization: `Bearer ${signIn.results.token}` } })).json();
    expect(profile.results.language).toBe("es");
    await context.close();
  });

  test("a Spanish parent's dashboard, disclaimer, header, profile and child form are in Spanish, with dates and no serious axe violations", async () => {
    // The demo parent's account speaks Spanish: signed in, the portal follows the account.
    const token = await apiToken(server, DEMO.parent, server.password(DEMO.parent));
    const saved = await fetch(`${server.url}/api/v1/en/user/language`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ language: "es" }),
    });
    expect(saved.ok).toBe(true);
    const context = await browser.newContext({ baseURL: server.url, locale: "es-US" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));

    // Signed out, the account pages are Spanish too.
    await page.goto("/forgot-password");
    await page.getByRole("heading", { level: 1, name: "¿Olvidó su contraseña?" }).waitFor();
    await page.getByRole("link", { name: "Volver a Iniciar sesión" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto("/");
    await page.getByLabel("Correo electrónico").fill(DEMO.parent);
    await page.getByLabel("Contraseña").fill(server.password(DEMO.parent));
    await page.getByRole("button", { name: "Iniciar sesión" }).click();
    await expectPath(page, /\/dashboard$/);
    // First login: the disclaimer keeps the medical caution in Spanish.
    const dialog = page.getByRole("alertdialog", { name: "Aviso importante" });
    await dialog.waitFor();
    await dialog.getByText(/Crown es una herramienta de detección/).waitFor();
    expect(await dialog.getByRole("button", { name: "Continuar" }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByText("He leído el aviso importante").click();
    await dialog.getByRole("button", { name: "Continuar" }).click();
    await page.waitForURL(/\/quiz-instructions$/);

    await passQuizByApi(server, DEMO.parent, server.password(DEMO.parent));
    await page.goto("/dashboard");
    await page.getByRole("heading", { level: 1, name: /^Buen(os días|as tardes|as noches), Maya$/ }).waitFor();
    await page.getByRole("heading", { name: "Recordatorios" }).waitFor();
    await page.getByRole("heading", { name: "Fotos subidas recientemente" }).waitFor();
    await page.getByRole("link", { name: "Comenzar la evaluación de este mes" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Principal" });
    await nav.getByRole("link", { name: "Inicio" }).waitFor();
    await nav.getByRole("link", { name: "Centro de ayuda" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: /menú de la cuenta/ }).click();
    await page.getByRole("menuitem", { name: "Perfil" }).waitFor();
    await page.getByRole("menuitem", { name: "Cerrar sesión" }).waitFor();
    await page.keyboard.press("Escape");

    await page.goto("/profile");
    await page.getByRole("heading", { level: 1, name: "Perfil" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "Mi perfil" }).waitFor();
    await page.waitForFunction(() => (document.querySelector("input[name=first_name]") as HTMLInputElement | null)?.value !== "");
    await page.getByLabel("Número de celular").waitFor();
    await page.getByText("Su correo electrónico no se puede cambiar.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The child form: Spanish labels and options, the provider search's 'No Physician' in Spanish.
    await page.goto("/profile?tab=child");
    await page.getByRole("heading", { level: 2, name: "Agregar otro hijo o hija" }).waitFor();
    await page.getByText("Madre", { exact: true }).click();
    await page.getByText("¿Cuál es el sexo de su bebé?").waitFor();
    await page.getByText("Nativo de Hawái o de otras islas del Pacífico", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Agregar", exact: true }).click();
    expect(await seriousViolations(page)).toEqual([]);
    // Longer Spanish words stay inside their buttons on a phone.
    await page.setViewportSize(PHONE);
    for (const name of ["Agregar", "Cancelar", "Cambiar contraseña"]) {
      const button = page.getByRole("button", { name, exact: true }).first();
      const fits = await button.evaluate((b) => b.scrollWidth <= b.clientWidth + 1);
      expect(fits, name).toBe(true);
    }

    // A page that is not there says so in Spanish.
    await page.goto("/no-such-page");
    await page.getByRole("heading", { level: 1, name: "No se encontró la página" }).waitFor();
    await page.getByRole("link", { name: "Ir al inicio" }).waitFor();
    expect(errors, errors.join("\n")).toEqual([]);
    await context.close();
  });

  test("signed in, the account menu changes the language of the portal and of the account", async () => {
    const { page, errors } = await openTab(browser, server.url);
    // The admin: a signed-in header without a first-login dialog in front of it.
    await signInThroughForm(page, DEMO.admin, server.password(DEMO.admin));
    await expectPath(page, /\/admin$/);
    const languageOf = () => page.evaluate(async () => {
      const answer = await fetch("/api/v1/en/user/profile", { headers: { Authorization: `Bearer ${sessionStorage.getItem("token")}` } });
      return ((await answer.json()) as { results: { language: string } }).results.language;
    });
    expect(await languageOf()).toBe("en");
    await page.getByRole("button", { name: /account menu/i }).click();
    await page.getByRole("menuitem", { name: /Español/ }).click();
    await page.getByText("A partir de ahora, sus correos e informes llegarán en español.").waitFor();
    expect(await languageOf()).toBe("es");
    expect(await seriousViolations(page)).toEqual([]);
    // The header speaks Spanish now, its account menu too.
    await page.getByRole("button", { name: /menú de la cuenta/ }).click();
    await page.getByRole("menuitem", { name: /English/ }).click();
    await page.getByText("Your e-mails and reports will now be in English.").waitFor();
    expect(await languageOf()).toBe("en");
    expect(errors, errors.join("\n")).toEqual([]);
  });
});
