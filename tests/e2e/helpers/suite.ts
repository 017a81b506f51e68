import type { Browser } from "playwright";
import { afterAll, beforeAll } from "vitest";
import { launchChromium } from "./browser.ts";
import { snapshotWebDist } from "./capture.ts";
import { type CrownServer, startCrown } from "./server.ts";

/**
 * A portal suite's world, set up once for the file: a private copy of the built portal (so a
 * concurrent build cannot swap the lazy chunks mid-run), Crown serving it, and Chromium. `ready`
 * receives the server and the browser; everything is stopped and removed after the file.
 */
export const portalSuite = (ready: (server: CrownServer, browser: Browser) => void, env: Record<string, string> = {}): void => {
  let server: CrownServer | undefined;
  let browser: Browser | undefined;
  let dist: { dir: string; remove: () => void } | undefined;
  beforeAll(async () => {
    dist = await snapshotWebDist();
    server = await startCrown({ ...env, CROWN_WEB_DIST: dist.dir });
    browser = await launchChromium();
    ready(server, browser);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    dist?.remove();
  });
};
