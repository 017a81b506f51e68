import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright";
import { describe, expect, test } from "vitest";
import { openTab, seriousViolations } from "./helpers/browser.ts";
import { analysedSampleReport, signIn } from "./helpers/capture.ts";
import { apiToken, callApi } from "./helpers/flows.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO } from "./helpers/server.ts";

/**
 * Issue 41, item 1: the reviewer corrects the model's outline and nose tip on a rendered photo in the
 * review console, by pointer and by keyboard only; the figures change on screen, and the published
 * report and its PDF carry the reviewer's figures, not the model's.
 */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

const REVIEWER = "reviewer@demo.crown";
const pdfText = (bytes: Uint8Array): string => execFileSync("pdftotext", ["-layout", "-", "-"], { input: bytes }).toString().replace(/\s+/g, " ");

/** The three outline handles nearest the width's two ends and the longer diagonal's front end, each with the way out from the head's centre (screen pixels). */
const targets = (page: Page) =>
  page.locator(".review-card").first().locator("svg.measure-overlay").evaluate((svg: SVGSVGElement) => {
    const m = svg.getScreenCTM()!;
    const screen = (x: number, y: number) => new DOMPoint(x, y).matrixTransform(m);
    const ends = (what: string) => {
      const l = svg.querySelector(`line[data-measure="${what}"]`)!;
      const n = (a: string) => Number(l.getAttribute(a));
      return [screen(n("x1"), n("y1")), screen(n("x2"), n("y2"))] as const;
    };
    const [w1, w2] = ends("Width");
    const [d1] = ends("Diagonal A");
    const centre = { x: (w1.x + w2.x) / 2, y: (w1.y + w2.y) / 2 };
    const handles = [...svg.querySelectorAll("circle.outline-handle")].map((c, k) => {
      const r = c.getBoundingClientRect();
      return { k, x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    const chosen: number[] = [];
    for (const p of [w1, w2, d1]) {
      const best = handles.filter((h) => !chosen.includes(h.k)).sort((a, b) => Math.hypot(a.x - p.x, a.y - p.y) - Math.hypot(b.x - p.x, b.y - p.y))[0]!;
      chosen.push(best.k);
    }
    return chosen.map((k) => {
      const h = handles[k]!;
      const d = Math.hypot(h.x - centre.x, h.y - centre.y) || 1;
      return { k, x: h.x, y: h.y, out: { x: (h.x - centre.x) / d, y: (h.y - centre.y) / d } };
    });
  });

/** Opens the report in the review console and waits for its first photo's outline handles (the page's errors in the failure). */
const openReview = async (page: Page, errors: string[], report: string) => {
  await page.goto(`/review/${report}`);
  const card = page.locator(".review-card").first();
  try {
    await card.locator("circle.outline-handle").first().waitFor();
  } catch (e) {
    throw new Error(`${String(e)}\nerrors: ${errors.join("\n")}\npage: ${(await page.locator("body").innerText()).slice(0, 2000)}`);
  }
  return card;
};

/** A new analysed report of the demo parent's child, open in the review console of a signed-in reviewer. */
const reviewerOnNewReport = async () => {
  const parent = await apiToken(server, DEMO.parent, server.password(DEMO.parent));
  const { report } = await analysedSampleReport(server, parent);
  const { page, errors } = await openTab(browser, server.url);
  page.setDefaultTimeout(60_000);
  await signIn(page, REVIEWER, server.password(REVIEWER), /\/review$/);
  return { report, page, errors, card: await openReview(page, errors, report) };
};

const figuresText = (page: Page, which: "current" | "model") => page.locator(".review-card").first().locator(`[data-figures="${which}"]`).innerText();
const ciOf = (text: string) => Number(/CI ([\d.]+)/.exec(text)![1]);
const kept = (page: Page, what: "outline" | "nose-tip") => page.waitForResponse((r) => r.url().endsWith(`/${what}`) && r.request().method() === "POST" && r.status() === 200, { timeout: 60_000 });

/** After publishing: the report's figures and its PDF are the reviewer's. */
const publishedCarries = async (report: string, reviewerCi: number, modelCi: number) => {
  const token = await apiToken(server, DEMO.parent, server.password(DEMO.parent));
  const reviewer = await apiToken(server, REVIEWER, server.password(REVIEWER));
  const detail = await callApi(server, reviewer, "GET", `/review/report/${report}`);
  expect(detail.status).toBe("published");
  expect(detail.summary.ci.median).toBeCloseTo(reviewerCi, 1);
  const pdf = await fetch(`${server.url}/api/v1/en/report/${report}/parent-download`, { headers: { authorization: `Bearer ${token}` } });
  expect(pdf.status).toBe(200);
  const text = pdfText(new Uint8Array(await pdf.arrayBuffer()));
  expect(text).toContain(`good-1-typical.jpg: CI ${reviewerCi.toFixed(1)}`);
  expect(text).not.toContain(`good-1-typical.jpg: CI ${modelCi.toFixed(1)}`);
};

describe("the reviewer corrects the outline", () => {
  test("by pointer: drags three outline points and the nose tip; the figures change beside the model's, then in the published report and PDF", async () => {
    const { report, page, errors, card } = await reviewerOnNewReport();
    await card.locator(".measured-photo img").waitFor();
    await card.scrollIntoViewIfNeeded();
    const model = await figuresText(page, "current");
    const modelCi = ciOf(model);

    for (const h of await targets(page)) {
      const saved = kept(page, "outline");
      await page.mouse.move(h.x, h.y);
      await page.mouse.down();
      await page.mouse.move(h.x + h.out.x * 14, h.y + h.out.y * 14, { steps: 5 });
      await page.mouse.up();
      await saved;
    }
    await card.getByText("outline corrected", { exact: false }).waitFor();
    const nose = card.locator(".nose-handle");
    const box = (await nose.boundingBox())!;
    const noseSaved = kept(page, "nose-tip");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 5, box.y + box.height / 2 - 3, { steps: 4 });
    await page.mouse.up();
    await noseSaved;

    // The reviewer's figures beside the model's, which stay as the model gave them.
    expect(await figuresText(page, "model")).toBe(model);
    const corrected = await figuresText(page, "current");
    expect(corrected).not.toBe(model);
    const reviewerCi = ciOf(corrected);
    expect(await card.locator("polygon.model-outline").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await card.getByRole("button", { name: /^Accept / }).click();
    await card.getByText("Accepted", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Report published successfully").first().waitFor({ timeout: 90_000 });
    await publishedCarries(report, reviewerCi, modelCi);
    expect(errors, errors.join("\n")).toEqual([]);
  }, 420_000);

  test("by keyboard only: moves three outline points, adds and removes one, moves the nose tip, accepts and publishes", async () => {
    const { report, page, errors, card } = await reviewerOnNewReport();
    const model = await figuresText(page, "current");
    const modelCi = ciOf(model);
    const chosen = (await targets(page)).map((t) => t.k).sort((a, b) => a - b);
    const focused = () =>
      page.evaluate(() => ({
        cls: document.activeElement?.getAttribute("class") ?? "",
        label: document.activeElement?.getAttribute("aria-label") ?? "",
        text: document.activeElement?.textContent?.trim() ?? "",
      }));
    /** Tab forwards until the focused element matches. */
    const tabTo = async (match: (f: { cls: string; label: string; text: string }) => boolean) => {
      for (let i = 0; i < 400; i++) {
        if (match(await focused())) return;
        await page.keyboard.press("Tab");
      }
      throw new Error("never focused");
    };
    for (const k of chosen) {
      await tabTo((f) => f.cls.includes("outline-handle") && f.label.startsWith(`Outline point ${k + 1} of`));
      const saved = kept(page, "outline");
      for (let i = 0; i < 2; i++) await page.keyboard.press("Shift+ArrowRight");
      await page.keyboard.press("Shift+ArrowUp");
      await saved;
    }
    // Insert adds a point after the focused one; Delete removes it again.
    const count = async () => card.locator("circle.outline-handle").count();
    const before = await count();
    let saved = kept(page, "outline");
    await page.keyboard.press("Insert");
    await saved;
    expect(await count()).toBe(before + 1);
    saved = kept(page, "outline");
    await page.keyboard.press("Delete");
    await saved;
    expect(await count()).toBe(before);
    await tabTo((f) => f.cls.includes("nose-handle"));
    const noseSaved = kept(page, "nose-tip");
    await page.keyboard.press("Shift+ArrowLeft");
    await noseSaved;
    expect(await figuresText(page, "model")).toBe(model);
    const corrected = await figuresText(page, "current");
    expect(corrected).not.toBe(model);
    const reviewerCi = ciOf(corrected);
    expect(await seriousViolations(page)).toEqual([]);

    await tabTo((f) => f.label.startsWith("Accept "));
    await page.keyboard.press("Enter");
    await card.getByText("Accepted", { exact: true }).waitFor();
    await tabTo((f) => f.text === "Publish");
    await page.keyboard.press("Enter");
    await page.getByText("Report published successfully").first().waitFor({ timeout: 90_000 });
    await publishedCarries(report, reviewerCi, modelCi);
    expect(errors, errors.join("\n")).toEqual([]);
  }, 420_000);

  test("the parent is asked once after the report (Not now keeps it off), grants in the profile, withdraws and is told what was removed", async () => {
    const { page, errors } = await openTab(browser, server.url);
    page.setDefaultTimeout(60_000);
    await signIn(page, DEMO.parent, server.password(DEMO.parent));
    await page.goto("/parent-results");
    const dialog = page.getByRole("region", { name: "Help improve Crown's measurements" });
    await dialog.waitFor();
    await dialog.getByText(/EXIF data/).waitFor();
    await dialog.getByText(/at most 5 years/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Not now" }).click();
    await page.getByText("We will not ask again; you can choose at any time in your profile.").first().waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Results" }).waitFor();
    expect(await page.getByRole("region", { name: "Help improve Crown's measurements" }).count()).toBe(0);

    await page.goto("/profile?tab=child");
    const child = page.locator(".side-sublist button").first();
    await child.click();
    const section = page.locator(".consent-section");
    await section.getByText(/^Not chosen:/).waitFor();
    await section.getByRole("button", { name: /^Yes, use/ }).click();
    await section.getByText(/^You allowed .* reviewed photos/).waitFor();
    await section.getByRole("button", { name: "Withdraw consent" }).click();
    await section.getByText(/^Consent withdrawn: .* photos were removed from every set not yet used for a shipped model \(sets changed: 0\)/).waitFor();
    await section.getByText(/^You withdrew consent/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors, errors.join("\n")).toEqual([]);
  }, 300_000);
});
