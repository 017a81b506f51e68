import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright";
import { CHROMIUM } from "../../chromium.ts";
import { repoRoot } from "./server.ts";

/** Debian Chromium with the suites' flags, plus any `extraArgs`. */
export const launchChromium = (extraArgs: readonly string[] = []): Promise<Browser> =>
  chromium.launch({ ...CHROMIUM, args: [...CHROMIUM.args, ...extraArgs] });

export interface Viewport {
  readonly width: number;
  readonly height: number;
}
export const PHONE: Viewport = { width: 390, height: 844 };
export const DESKTOP: Viewport = { width: 1280, height: 800 };
export const MOBILE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

export interface Tab {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught exceptions seen so far (failed resource loads of expected 4xx are listed apart). */
  readonly errors: string[];
  readonly failedResponses: string[];
}

export const openTab = async (browser: Browser, baseURL: string, size: Viewport = DESKTOP, userAgent?: string): Promise<Tab> => {
  const context = await browser.newContext({ baseURL, viewport: size, ...(userAgent ? { userAgent } : {}) });
  const page = await context.newPage();
  const errors: string[] = [];
  const failedResponses: string[] = [];
  page.on("console", (m) => {
    // Chromium logs every 4xx answer as "Failed to load resource"; tests check those apart.
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) {
      errors.push(m.text());
      if (process.env.CROWN_E2E_DEBUG) console.log("console error:", m.text());
    }
  });
  page.on("pageerror", (e) => {
    errors.push(String(e));
    if (process.env.CROWN_E2E_DEBUG) console.log("page error:", String(e));
  });
  page.on("response", (r) => {
    if (r.status() >= 400) failedResponses.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return { context, page, errors, failedResponses };
};

export const screensDir = path.join(repoRoot, "tests/artifacts/screens");

/** Saves `<name>-phone.png` and `<name>-desktop.png` of the current screen; `atEach` runs at each width first (axe, layout). */
export const screenshotBoth = async (page: Page, name: string, atEach?: (label: "phone" | "desktop") => Promise<void>) => {
  mkdirSync(screensDir, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  for (const [label, size] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await atEach?.(label);
    await page.screenshot({ path: path.join(screensDir, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
};

/** Serious or critical axe-core violations on the page (none allowed). */
export const seriousViolations = async (page: Page) => {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
};

export const encodePassword = (p: string) => Buffer.from(p, "utf8").toString("base64");

/** A unique address per test run. */
export const uniqueEmail = (prefix: string) => `${prefix}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@example.test`;

/**
 * What makes the screen scroll sideways: the document wider than the viewport, or any element that
 * scrolls horizontally inside it (a table wrapper hiding columns). Empty when nothing does.
 */
export const sidewaysScroll = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const found: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth) {
      // Name the innermost elements that reach past the right edge, for the failure message.
      const past = Array.from(document.querySelectorAll<HTMLElement>("body *")).filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5);
      const innermost = past.filter((el) => !past.some((other) => other !== el && el.contains(other))).slice(0, 4);
      const names = innermost.map((el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.trim().replace(/\s+/g, ".")}` : ""} (right edge ${Math.round(el.getBoundingClientRect().right)} px)`);
      found.push(`the document is ${doc.scrollWidth} px wide in a ${window.innerWidth} px viewport: ${names.join(", ")}`);
    }
    for (const el of Array.from(document.querySelectorAll<HTMLElement>("body *"))) {
      const overflow = getComputedStyle(el).overflowX;
      if ((overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
        found.push(`${el.tagName.toLowerCase()}.${el.className} scrolls sideways (${el.scrollWidth} px in ${el.clientWidth} px)`);
      }
    }
    return found;
  });
