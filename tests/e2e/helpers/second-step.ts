import { authenticatorCodeAt } from "@crown/crypto";
import type { Page } from "playwright";

/**
 * Two-step sign-in for the browser suites (issue 44). Physicians, staff, reviewers and admins must
 * set up a second factor before anything else; these helpers do it as a user would — through the
 * API (`apiSignIn`) or on the /two-step page (`setUpOnPage`) — computing the app's codes with the
 * server's own library (otplib, through @crown/crypto), and keep each account's recovery codes so a
 * later sign-in answers its second step with the next one. Keyed by server and e-mail.
 */

interface Factor {
  secret: string;
  codes: string[];
}
const factors = new Map<string, Factor>();
const keyOf = (serverUrl: string, email: string) => `${new URL(serverUrl).origin}|${email.trim().toLowerCase()}`;

const REQUIRED = new Set(["physician", "physician_staff", "reviewer", "admin"]);

const post = async (serverUrl: string, route: string, body: unknown, token?: string) => {
  const res = await fetch(`${new URL(serverUrl).origin}/api/v1/en${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, any> };
};

/** The account's second factor as these helpers set it up (undefined: none yet, or set up elsewhere). */
export const factorOf = (serverUrl: string, email: string): Factor | undefined => factors.get(keyOf(serverUrl, email));

/** The next unspent recovery code of the account (each works once). */
export const nextRecoveryCode = (serverUrl: string, email: string): string => {
  const factor = factorOf(serverUrl, email);
  const code = factor?.codes.shift();
  if (!code) throw new Error(`no recovery code left for ${email}: set up through these helpers first`);
  return code;
};

/** An authenticator app's current code for the account (one sign-in per 30-second step). */
export const appCode = (serverUrl: string, email: string): string => {
  const factor = factorOf(serverUrl, email);
  if (!factor) throw new Error(`no authenticator app for ${email}`);
  return authenticatorCodeAt(factor.secret);
};

/** Sets up an authenticator app in the session of `token` (which must have just signed in). */
export const setUpApp = async (serverUrl: string, email: string, token: string): Promise<Factor> => {
  const started = await post(serverUrl, "/user/second-factor/app", {}, token);
  if (started.status !== 200) throw new Error(`second factor: ${started.status} ${JSON.stringify(started.json)}`);
  const secret = started.json.results.secret as string;
  const confirmed = await post(serverUrl, "/user/second-factor/app/confirm", { code: authenticatorCodeAt(secret) }, token);
  if (confirmed.status !== 200) throw new Error(`second factor: ${confirmed.status} ${JSON.stringify(confirmed.json)}`);
  const factor = { secret, codes: [...(confirmed.json.results.recovery_codes as string[])] };
  factors.set(keyOf(serverUrl, email), factor);
  return factor;
};

/**
 * Signs in through the API as a user would, second step included: an account that must have two-step
 * sign-in and has none sets up an app first; one that has it answers with a recovery code (topped up
 * when few are left). Answers the sign-in's results.
 */
export const apiSignIn = async (serverUrl: string, email: string, password: string): Promise<Record<string, any> & { token: string }> => {
  const body = { email, password: Buffer.from(password, "utf8").toString("base64"), device_type: "web" };
  let answer = await post(serverUrl, "/user/sign-in", body);
  if (answer.status === 403 && answer.json.status === "SecondFactorRequired") answer = await post(serverUrl, "/user/sign-in", { ...body, code: nextRecoveryCode(serverUrl, email) });
  if (answer.status !== 200) throw new Error(`sign-in of ${email}: ${answer.status} ${JSON.stringify(answer.json)}`);
  const results = answer.json.results as Record<string, any> & { token: string; type: string };
  if (REQUIRED.has(results.type) && !factorOf(serverUrl, email)) {
    await setUpApp(serverUrl, email, results.token);
    // Signed in again with the second step, so the answer's onboarding step is as it is now.
    return apiSignIn(serverUrl, email, password);
  }
  const factor = factorOf(serverUrl, email);
  if (factor && factor.codes.length < 3) {
    const fresh = await post(serverUrl, "/user/second-factor/recovery-codes", {}, results.token);
    if (fresh.status === 200) factor.codes = [...(fresh.json.results.recovery_codes as string[])];
  }
  return results;
};

/** On /two-step: sets up an authenticator app from the page's key, keeps the recovery codes, goes on. */
export const setUpOnPage = async (page: Page, email: string) => {
  await page.getByRole("button", { name: /Set up an authenticator app|Configurar una aplicación de autenticación/ }).click();
  const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  await page.getByLabel(/Code from the app|Código de la aplicación/).fill(authenticatorCodeAt(secret));
  await page.getByRole("button", { name: /^(Confirm|Confirmar)$/ }).click();
  const list = page.getByRole("list", { name: /Recovery codes|Códigos de recuperación/ });
  await list.waitFor();
  const codes = (await list.locator("code").allInnerTexts()).map((c) => c.trim());
  factors.set(keyOf(page.url(), email), { secret, codes });
  await page.getByText(/I have saved my recovery codes|Guardé mis códigos de recuperación/).click();
  await page.getByRole("button", { name: /^(Continue|Continuar)$/ }).click();
  await page.waitForURL((u) => u.pathname !== "/two-step");
};

/**
 * After the login form's Sign In: answers the second step with a recovery code when it is asked, or
 * sets up two-step sign-in when the portal sends the user to /two-step. Resolves once past both.
 */
export const passSecondStep = async (page: Page, email: string, timeout = 30_000) => {
  const code = page.getByLabel(/^(Authentication code|Recovery code|Código de autenticación|Código de recuperación)$/);
  const until = Date.now() + timeout;
  for (;;) {
    if (await code.isVisible().catch(() => false)) {
      if (!factorOf(page.url(), email)) throw new Error(`${email} has two-step sign-in these helpers did not set up`);
      await page.getByRole("button", { name: /Use a recovery code instead|Usar un código de recuperación/ }).click();
      await code.fill(nextRecoveryCode(page.url(), email));
      await page.getByRole("button", { name: /Verify and sign in|Verificar e iniciar sesión/ }).click();
      await code.waitFor({ state: "detached", timeout });
      continue;
    }
    const path = new URL(page.url()).pathname;
    if (path === "/two-step") {
      await setUpOnPage(page, email);
      return;
    }
    if (path !== "/") return;
    if (await page.locator(".login-error").isVisible().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`sign-in of ${email} did not leave the login page`);
    await page.waitForTimeout(100);
  }
};
