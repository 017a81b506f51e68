import type { Page } from "playwright";
import type { CrownServer } from "./server.ts";
import { apiSignIn, passSecondStep } from "./second-step.ts";

/** Steps several browser suites share. */

/** True when the server already answers `path` (a 404 "Not found" means the route is not there yet). */
export const hasRoute = async (server: CrownServer, method: "GET" | "POST", path: string): Promise<boolean> => {
  const res = await fetch(`${server.url}/api/v1/en${path}`, { method, headers: { "content-type": "application/json" }, ...(method === "POST" ? { body: "{}" } : {}) });
  return res.status !== 404;
};

/** The login form, then the second step when it is asked (or its setup on a first sign-in; issue 44). */
export const signInThroughForm = async (page: Page, email: string, password: string) => {
  await page.goto("/");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await passSecondStep(page, email);
};

/** Signs up through the form; `beforeSubmit` runs on the filled form (checks, screenshots). */
export const signUpThroughForm = async (
  page: Page,
  role: "Provider" | "Parent" | "Other",
  v: { first: string; last: string; email: string; password: string; phone: string },
  beforeSubmit?: () => Promise<void>,
) => {
  await page.goto("/sign-up");
  await page.getByText(role, { exact: true }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("First name").fill(v.first);
  await page.getByLabel("Last name").fill(v.last);
  await page.getByLabel("Email").fill(v.email);
  await page.getByLabel("Password", { exact: true }).fill(v.password);
  await page.getByLabel("Confirm password").fill(v.password);
  await page.getByLabel("Mobile number").fill(v.phone);
  // CMS's example NPI number (a valid check digit).
  if (role === "Provider") await page.getByLabel("NPI number").fill("1234567893");
  await page.getByText("I accept the").click();
  await beforeSubmit?.();
  await page.getByRole("button", { name: "Sign Up" }).click();
  await page.waitForURL(/\/signup-confirmation$/);
};

export const signOutThroughMenu = async (page: Page) => {
  await page.getByRole("button", { name: /account menu/i }).click();
  await page.getByRole("menuitem", { name: "Sign Out" }).click();
  await page.waitForURL((u) => u.pathname === "/");
};

/** The header's main navigation labels, in order. */
export const navLabels = async (page: Page) => {
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Home" }).waitFor({ state: "attached" });
  return nav.getByRole("link").allInnerTexts();
};

/** Ticks the first-login disclaimer and continues (the Continue button is disabled until then). */
export const acceptDisclaimer = async (page: Page) => {
  const dialog = page.getByRole("alertdialog", { name: "Disclaimer" });
  await dialog.waitFor();
  const cont = dialog.getByRole("button", { name: "Continue" });
  if (!(await cont.isDisabled())) throw new Error("Continue must be disabled before the tick");
  await dialog.getByText("I have read the Disclaimer").click();
  await cont.click();
};

/** A 1x1 PNG for the profile photo. */
export const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** Signs in through the API and answers the bearer token (for setting up state, not for what is under test). */
export const apiToken = async (server: CrownServer, email: string, password: string): Promise<string> => (await apiSignIn(server.url, email, password)).token;

/** An admin approves a WaitingApproval account by e-mail (through the admin API). */
export const approveByAdmin = async (server: CrownServer, adminEmail: string, adminPassword: string, email: string) => {
  const token = await apiToken(server, adminEmail, adminPassword);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const pending = (await (await fetch(`${server.url}/api/v1/en/admin/users/pending`, { headers })).json()) as { results: { data: Array<{ identifier: string; email: string }> } };
  const user = pending.results.data.find((u) => u.email === email);
  if (!user) throw new Error(`${email} is not waiting for approval`);
  const res = await fetch(`${server.url}/api/v1/en/admin/users/approve`, { method: "POST", headers, body: JSON.stringify({ identifier: user.identifier }) });
  if (!res.ok) throw new Error(`approve answered ${res.status}: ${await res.text()}`);
};

/** Waits for `pattern` in the URL; when an error shows first, fails with the screen's text. */
export const expectPath = async (page: Page, pattern: RegExp, timeout = 20_000) => {
  await Promise.race([
    page.waitForURL(pattern, { timeout }),
    page.locator(".login-error, .form-message-error, .toast-error").first().waitFor({ timeout }),
  ]).catch(() => undefined);
  if (!pattern.test(new URL(page.url()).pathname)) {
    const text = await page.locator("main").innerText().catch(() => "");
    throw new Error(`Expected ${pattern} but the page is ${page.url()}:\n${text.slice(0, 800)}`);
  }
};

/**
 * Passes the cap quiz through the API with the pool's own verdicts (setting up state: a user whose
 * quiz is done lands on the dashboard rather than the quiz instructions).
 */
export const passQuizByApi = async (server: CrownServer, email: string, password: string) => {
  const token = await apiToken(server, email, password);
  const pool = (await (await fetch(`${server.url}/quiz/manifest.json`)).json()) as { cap: Array<{ image: string; good: boolean }> };
  const answers = pool.cap.slice(0, 10).map((q) => ({ image: q.image, answer: q.good ? "GOOD" : "BAD" }));
  const res = await fetch(`${server.url}/api/v1/en/user/update-quiz`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ mode: "cap", answers }),
  });
  const body = (await res.json()) as { results?: { passed?: boolean; is_quiz_time?: boolean } };
  if (!res.ok || body.results?.is_quiz_time !== false) throw new Error(`update-quiz answered ${res.status}: ${JSON.stringify(body)}`);
  // The token was only for this call.
  await fetch(`${server.url}/api/v1/en/user/sign-out`, { headers: { authorization: `Bearer ${token}` } });
};

/** Follows a main-navigation link; on a phone the links sit behind the Menu button. */
export const followNav = async (page: Page, label: string) => {
  const menu = page.getByRole("button", { name: "Menu", exact: true });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label, exact: true }).click();
};

/** Calls the API as `token` (setting up state, not what is under test); a FormData body goes as multipart. */
export const callApi = async (server: CrownServer, token: string, method: string, url: string, body?: unknown): Promise<any> => {
  const form = body instanceof FormData;
  const res = await fetch(`${server.url}/api/v1/en${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && !form ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: form ? body : JSON.stringify(body) } : {}),
  });
  const json = (await res.json().catch(() => ({}))) as { results?: any };
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(json)}`);
  return json.results;
};
