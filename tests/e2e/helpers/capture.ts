import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright";
import { expect } from "vitest";
import { encodePassword, launchChromium } from "./browser.ts";
import { type CrownServer, ensureWebBuilt, repoRoot } from "./server.ts";
import { apiSignIn, passSecondStep } from "./second-step.ts";

/** Shared steps of the capture and reporting browser suites (issue 7). */

/**
 * A private copy of the built portal for one suite (served through CROWN_WEB_DIST), so that another
 * build of apps/web/dist during the run cannot swap the lazy chunks under the open pages.
 */
export const snapshotWebDist = async (): Promise<{ dir: string; remove: () => void }> => {
  ensureWebBuilt();
  const source = path.join(repoRoot, "apps/web/dist");
  const dir = path.join(repoRoot, "tests/artifacts/web-dist", `${process.pid}-${Date.now().toString(36)}`);
  for (let attempt = 0; attempt < 20; attempt++) {
    rmSync(dir, { recursive: true, force: true });
    try {
      cpSync(source, dir, { recursive: true });
      const html = readFileSync(path.join(dir, "index.html"), "utf8");
      const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
      if (assets.length > 0 && assets.every((a) => existsSync(path.join(dir, a)))) return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
    } catch {
      // a build is writing the directory right now
    }
    await new Promise((r) => setTimeout(r, 3000));
  }
  throw new Error("apps/web/dist stayed incomplete (a build kept running?)");
};

const SAMPLES = path.join(repoRoot, "models/head-contour/samples");

/** The rendered clip as Chromium's fake camera wants it (.y4m); rebuilt from clip.mp4 with ffmpeg when missing. */
export const fakeCameraClip = (): string => {
  const y4m = path.join(SAMPLES, "clip.y4m");
  if (existsSync(y4m)) return y4m;
  const mp4 = path.join(SAMPLES, "clip.mp4");
  if (!existsSync(mp4)) throw new Error(`No rendered clip: run models/head-contour/make_assets.py samples ${SAMPLES}`);
  const out = path.join(mkdtempSync(path.join(tmpdir(), "crown-clip-")), "clip.y4m");
  const r = spawnSync("ffmpeg", ["-y", "-loglevel", "error", "-i", mp4, "-pix_fmt", "yuv420p", out], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("ffmpeg could not convert clip.mp4 to clip.y4m");
  return out;
};

/** Debian Chromium with a .y4m clip (by default the rendered head clip) fed as the camera. */
export const launchWithFakeCamera = (clip: string = fakeCameraClip()): Promise<Browser> =>
  launchChromium(["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${clip}`]);

export interface ApiUser {
  readonly token: string;
  readonly identifier: string;
  readonly email: string;
}

export const api = async <T = unknown>(server: CrownServer, method: string, route: string, token?: string, body?: unknown): Promise<T> => {
  const res = await fetch(`${server.url}/api/v1/en${route}`, {
    method,
    headers: { "content-type": "application/json", accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text}`);
  return (text ? (JSON.parse(text) as { results: T }).results : (undefined as T)) as T;
};

/** Signs in through the API, second step included (staff set up two-step sign-in on their first sign-in). */
export const signInApi = async (server: CrownServer, email: string, password: string): Promise<ApiUser & Record<string, unknown>> => {
  const r = (await apiSignIn(server.url, email, password)) as { token: string; identifier: string; email: string };
  return { ...r, email };
};

/** Signs up through the API and follows the e-mailed verification link. */
export const signUpVerified = async (server: CrownServer, type: "parent" | "physician", v: { email: string; password: string; first: string; last: string }) => {
  const before = (await server.outbox()).length;
  // A physician gives an NPI number (CMS's example, a valid check digit).
  const npi = type === "physician" ? { npi: "1234567893" } : {};
  const created = await api<{ identifier: string }>(server, "POST", "/user/sign-up", undefined, { first_name: v.first, last_name: v.last, email: v.email, password: encodePassword(v.password), phone: "5551234567", type, ...npi });
  const link = new URL(await server.waitForLink(v.email, "/verify-email", before));
  const q = link.searchParams;
  await api(server, "GET", `/email/verify/${q.get("id")}/${q.get("token")}?expires=${q.get("expires")}&signature=${q.get("signature")}`);
  // These suites use the physician's practice: the demo admin verifies it, as the admin console would (ADR 25).
  if (type === "physician") {
    const admin = await signInApi(server, "admin@demo.crown", server.password("admin@demo.crown"));
    await api(server, "POST", "/admin/practices/verify", admin.token, { physician_identifier: created.identifier });
  }
};

/** First-login chores done through the API: the disclaimer (everyone) and the BAA (physicians). */
export const finishOnboarding = async (server: CrownServer, user: ApiUser, physician: boolean) => {
  await api(server, "POST", "/user/accept-disclaimer", user.token, { accepted: true }).catch(() => undefined);
  if (physician) await api(server, "POST", "/user/sign-baa", user.token, { name: "Dr Test", covered_entity: "Crown Test Practice" }).catch(() => undefined);
};

/**
 * Signs in through the login form and waits to leave it. A user whose quiz is due lands on the quiz
 * instructions (spec section 4); these suites then go on from the dashboard.
 */
export const signIn = async (page: Page, email: string, password: string, landing: RegExp = /\/(dashboard|review|admin)$/) => {
  await page.goto("/");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  // The second step, or setting it up on a first sign-in (issue 44).
  await passSecondStep(page, email);
  await page.waitForURL((u) => landing.test(u.pathname) || u.pathname === "/quiz-instructions");
  if (new URL(page.url()).pathname === "/quiz-instructions" && !landing.test("/quiz-instructions")) {
    await page.goto("/dashboard");
    await page.waitForURL(landing);
  }
};

export const daysAgo = (n: number) => new Date(Date.now() - n * 86400_000).toISOString().slice(0, 10);

export type QuizManifest = Record<"cap" | "nocap", Array<{ image: string; good: boolean }>>;
export const quizManifest = async (server: CrownServer): Promise<QuizManifest> => (await (await fetch(`${server.url}/quiz/manifest.json`)).json()) as QuizManifest;

/**
 * Answers the quiz's 10 questions on screen from the pool's own verdicts: all right, or all wrong.
 * `onStep` runs on each question and again once its feedback shows (screenshots, checks).
 */
export const answerQuiz = async (page: Page, server: CrownServer, manifest: QuizManifest, right: boolean, onStep?: (i: number, stage: "question" | "feedback") => Promise<void>) => {
  const truth = new Map([...manifest.cap, ...manifest.nocap].map((q) => [q.image, q.good]));
  for (let i = 1; i <= 10; i++) {
    await page.getByRole("heading", { name: `Question ${i}/10` }).waitFor();
    const src = new URL((await page.locator("img.quiz-image").getAttribute("src")) ?? "", server.url).pathname;
    const good = truth.get(src);
    if (good === undefined) throw new Error(`${src} is not in the quiz pool`);
    await onStep?.(i, "question");
    await page.getByRole("button", { name: good === right ? "GOOD" : "BAD", exact: true }).click();
    await page.locator(".quiz-feedback").waitFor();
    await onStep?.(i, "feedback");
    // The feedback moves on by itself after 5 s (or Next): on a loaded machine the checks above may outlast
    // it, so wait for whichever comes, the button or the next screen, and press Next only if it is still there.
    const next = page.getByRole("button", { name: i < 10 ? "Next question" : "See my score" });
    const after = i < 10 ? page.getByRole("heading", { name: `Question ${i + 1}/10` }) : page.locator(".quiz-result");
    await next.or(after).first().waitFor();
    if (await next.isVisible()) await next.click({ timeout: 5_000 }).catch(() => undefined);
    await after.waitFor();
  }
};

/**
 * In the review console's report screen: for each of the first `count` photo cards, places the nose
 * tip where the model found none (a click at the top of the outline), then accepts the photo.
 */
export const acceptPhotos = async (page: Page, count = Number.POSITIVE_INFINITY) => {
  const cards = page.locator(".review-card");
  const n = Math.min(count, await cards.count());
  for (let i = 0; i < n; i++) {
    const card = cards.nth(i);
    await card.scrollIntoViewIfNeeded();
    if (await card.locator(".place-hint").count()) {
      const point = await card.locator("svg.measure-overlay").evaluate((svg: SVGSVGElement) => {
        const poly = svg.querySelector('polygon[data-measure="Outline"]');
        const pts = (poly?.getAttribute("points") ?? "").trim().split(/\s+/).map((p) => p.split(",").map(Number) as [number, number]);
        const top = pts.reduce((a, b) => (b[1] < a[1] ? b : a));
        const m = svg.getScreenCTM()!;
        const p = new DOMPoint(top[0], top[1]).matrixTransform(m);
        return { x: p.x, y: p.y };
      });
      await page.mouse.click(point.x, point.y);
      await card.locator(".nose-handle").waitFor();
      await page.getByText("Nose tip corrected and photo re-measured").first().waitFor();
    }
    const accept = card.getByRole("button", { name: /^Accept / });
    if (await accept.isEnabled()) await accept.click();
    await card.getByText("Accepted", { exact: true }).waitFor();
  }
  return cards;
};

/** In the review queue: reloads until the baby's report has joined it (the server measures the photos first), and answers its link. */
export const queuedReport = async (page: Page, babyName: string, timeout = 150_000) => {
  const link = page.getByRole("link", { name: babyName }).first();
  const until = Date.now() + timeout;
  for (;;) {
    await page.reload();
    await page.locator("h1").first().waitFor();
    if ((await link.count()) > 0) return link;
    if (Date.now() > until) throw new Error(`${babyName}'s report did not reach the review queue`);
    await new Promise((r) => setTimeout(r, 3000));
  }
};

/**
 * The demo parent's first baby with one analysed report of a sample photo, made through the API (set-up,
 * not what a test is about): prepared, uploaded, finalized and analysed, waiting for a reviewer.
 */
export const analysedSampleReport = async (server: CrownServer, parentToken: string): Promise<{ report: string; babyFirstName: string }> => {
  const baby = (await api<{ babies: Array<{ identifier: string; first_name: string }> }>(server, "GET", "/user/profile", parentToken)).babies[0]!;
  const { report_identifier: report } = await api<{ report_identifier: string }>(server, "POST", "/report/prepare", parentToken, { baby_identifier: baby.identifier, analysis_type: "head_ci_cvai_analysis" });
  const form = new FormData();
  form.append("report_identifier", report);
  form.append("attachments[]", new Blob([readFileSync(path.join(repoRoot, "models/head-contour/samples/good-1-typical.jpg"))], { type: "image/jpeg" }), "good-1-typical.jpg");
  const uploaded = await fetch(`${server.url}/api/v1/en/report/upload`, { method: "POST", headers: { authorization: `Bearer ${parentToken}` }, body: form });
  expect(uploaded.status).toBe(200);
  await api(server, "POST", "/report/finalize", parentToken, { report_identifier: report });
  await expect.poll(async () => (await api<{ status: string }>(server, "GET", `/report/${report}`, parentToken)).status, { timeout: 150_000, interval: 1000 }).toBe("analyzed");
  return { report, babyFirstName: baby.first_name };
};

/** The same report published by the demo reviewer. */
export const publishSampleReport = async (server: CrownServer, parentToken: string): Promise<{ report: string; babyFirstName: string }> => {
  const analysed = await analysedSampleReport(server, parentToken);
  const reviewer = await signInApi(server, "reviewer@demo.crown", server.password("reviewer@demo.crown"));
  await api(server, "POST", `/review/report/${analysed.report}/publish`, reviewer.token, {});
  return analysed;
};
