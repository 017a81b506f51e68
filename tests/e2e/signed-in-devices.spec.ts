import type { Browser } from "playwright";
import { beforeAll, describe, expect, test } from "vitest";
import { MOBILE_UA, openTab, seriousViolations, uniqueEmail } from "./helpers/browser.ts";
import { api, daysAgo, finishOnboarding, signInApi, signUpVerified } from "./helpers/capture.ts";
import { expectPath, passQuizByApi, signInThroughForm } from "./helpers/flows.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO } from "./helpers/server.ts";

/**
 * Issue 44, signed-in devices: a parent signed in on a laptop and a phone ends the phone's session
 * from Profile. The phone's next call is 401, and its event stream is closed by the server at once
 * (a `session_ended` event, then the stream ends and its ticket cannot reopen it).
 */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

const PASSWORD = "Parent-pass1!";

describe("signed-in devices", () => {
  let email: string;
  beforeAll(async () => {
    const physician = await signInApi(server, DEMO.physician, server.password(DEMO.physician));
    await finishOnboarding(server, physician, true);
    email = uniqueEmail("devices-parent");
    await signUpVerified(server, "parent", { email, password: PASSWORD, first: "Dora", last: "Devices" });
    const parent = await signInApi(server, email, PASSWORD);
    await api(server, "POST", "/user/register-baby", parent.token, {
      physician_identifier: physician.identifier,
      first_name: "Nico",
      last_name: "Devices",
      date_of_birth: daysAgo(60),
      relation: "mother",
      gender: "male",
    });
    await finishOnboarding(server, parent, false);
    await passQuizByApi(server, email, PASSWORD);
    // The set-up's own API sessions end here, so the browsers' two are all the account has.
    const setUp = await signInApi(server, email, PASSWORD);
    await api(server, "POST", "/user/sessions/end-others", setUp.token, {});
    await api(server, "GET", "/user/sign-out", setUp.token);
  }, 120_000);

  test("a parent ends another session: its next call is 401 and its event stream closes", async () => {
    const laptop = await openTab(browser, server.url);
    await signInThroughForm(laptop.page, email, PASSWORD);
    await expectPath(laptop.page, /\/dashboard$/);
    const phone = await openTab(browser, server.url, { width: 390, height: 844 }, MOBILE_UA);
    await signInThroughForm(phone.page, email, PASSWORD);
    await expectPath(phone.page, /\/dashboard$/);

    // The phone listens on an event stream of its own session, as the portal's live updates do.
    const phoneToken = (await phone.page.evaluate(() => sessionStorage.getItem("token")))!;
    expect(phoneToken).toBeTruthy();
    await phone.page.evaluate(async (token) => {
      const w = window as unknown as { probe: { events: string[]; state: () => number } };
      const ticket = await fetch("/api/v1/en/events/ticket", { method: "POST", headers: { Authorization: `Bearer ${token}` } }).then((r) => r.json());
      const es = new EventSource(`/api/v1/en/events?ticket=${encodeURIComponent(ticket.results.ticket)}`);
      const events: string[] = [];
      es.addEventListener("ready", () => events.push("ready"));
      es.addEventListener("session_ended", () => events.push("session_ended"));
      w.probe = { events, state: () => es.readyState };
    }, phoneToken);
    await phone.page.waitForFunction(() => (window as unknown as { probe: { events: string[] } }).probe.events.includes("ready"));

    // Profile, Signed-in devices on the laptop: both sessions in words, this one marked.
    await laptop.page.goto("/profile?tab=devices");
    const list = laptop.page.getByRole("list", { name: "Signed-in devices" });
    await list.getByRole("listitem").nth(1).waitFor();
    expect(await list.getByRole("listitem").count()).toBe(2);
    const mine = list.getByRole("listitem").filter({ hasText: "This device" });
    await mine.getByText(/Chrom\w* \d+ on Linux/).waitFor();
    const other = list.getByRole("listitem").filter({ hasNotText: "This device" });
    await other.getByText(/on Android|on iOS/).waitFor();
    await other.getByText("Phone").waitFor();
    expect(await seriousViolations(laptop.page)).toEqual([]);
    await other.getByRole("button", { name: /^Sign out / }).click();
    await laptop.page.getByText("The session on that device has ended.").waitFor();
    // The list is read again after the answer: wait for the phone's row to go.
    await other.waitFor({ state: "detached" });
    expect(await list.getByRole("listitem").count()).toBe(1);

    // The phone's stream was told and closed; it cannot be reopened with its spent ticket (readyState CLOSED).
    await phone.page.waitForFunction(() => (window as unknown as { probe: { events: string[] } }).probe.events.includes("session_ended"));
    await phone.page.waitForFunction(() => (window as unknown as { probe: { state: () => number } }).probe.state() === 2, undefined, { timeout: 20_000 });
    // Its next call is 401.
    const status = await phone.page.evaluate((token) => fetch("/api/v1/en/user/profile", { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status), phoneToken);
    expect(status).toBe(401);
    // The portal on the phone, told by its own stream, signs out by itself.
    await phone.page.waitForURL((u) => u.pathname === "/", { timeout: 20_000 });
    // The laptop is still signed in.
    await laptop.page.goto("/profile?tab=devices");
    await laptop.page.getByText("This device").waitFor();
    expect(laptop.errors, laptop.errors.join("\n")).toEqual([]);
  }, 120_000);
});
