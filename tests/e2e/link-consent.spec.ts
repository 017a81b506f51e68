import type { Browser } from "playwright";
import { describe, expect, test } from "vitest";
import { openTab, screenshotBoth, seriousViolations, uniqueEmail } from "./helpers/browser.ts";
import { api, daysAgo, finishOnboarding, signInApi, signUpVerified } from "./helpers/capture.ts";
import { expectPath, passQuizByApi, signInThroughForm } from "./helpers/flows.ts";
import { portalSuite } from "./helpers/suite.ts";
import { type CrownServer, DEMO } from "./helpers/server.ts";

/**
 * Consent before linking (issue 15, ADR 56): a practice adds a patient with the e-mail of a parent who
 * already has an account; nothing is linked until the parent, led by the e-mail's link to the portal and
 * signed in, accepts the request there.
 */

let server: CrownServer;
let browser: Browser;
portalSuite((s, b) => {
  server = s;
  browser = b;
});

const PASSWORD = "Parent-pass1!";

describe("consent before linking", () => {
  test("an existing parent follows the e-mailed link, signs in, and accepts the practice's request: the baby joins the account", async () => {
    const email = uniqueEmail("existing.parent");
    const physician = await signInApi(server, DEMO.physician, server.password(DEMO.physician));
    await finishOnboarding(server, physician, true);
    // A parent with an account of their own: verified, first baby registered, disclaimer and quiz done.
    await signUpVerified(server, "parent", { email, password: PASSWORD, first: "Rosa", last: "Rivers" });
    const parent = await signInApi(server, email, PASSWORD);
    await api(server, "POST", "/user/register-baby", parent.token, {
      physician_identifier: physician.identifier,
      first_name: "Theo",
      last_name: "Rivers",
      date_of_birth: daysAgo(40),
      gender: "male",
      relation: "mother",
    });
    await finishOnboarding(server, parent, false);
    await passQuizByApi(server, email, PASSWORD);

    // The practice adds a second child with the parent's e-mail: only a request, and an e-mail leading to the portal.
    const before = (await server.outbox()).length;
    const added = await api<{ identifier: string }>(server, "POST", "/patient/add", physician.token, {
      first_name: "Lily",
      last_name: "Rivers",
      date_of_birth: daysAgo(20),
      gender: "female",
      email,
    });
    const babies = async () => (await api<Array<{ identifier: string }>>(server, "GET", "/user/babies", parent.token)).map((b) => b.identifier);
    expect(await babies()).not.toContain(added.identifier);
    const link = await server.waitForLink(email, "/link-requests", before);
    expect(new URL(link).pathname).toBe("/link-requests");

    const { page, errors } = await openTab(browser, server.url);
    await page.goto(link);
    await expectPath(page, /^\/$/);
    await signInThroughForm(page, email, PASSWORD);
    await expectPath(page, /\/link-requests$/);
    await page.getByRole("heading", { level: 1, name: "Requests from practices" }).waitFor();
    const request = page.getByRole("listitem").filter({ hasText: "asks to add Lily Rivers" });
    await request.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotBoth(page, "link-requests");

    await request.getByRole("button", { name: "Accept" }).click();
    await page.getByText("Lily Rivers now appears in your account.").waitFor();
    await page.getByText("No requests are waiting for your answer.").waitFor();
    expect(await babies()).toContain(added.identifier);
    expect(errors, errors.join("\n")).toEqual([]);
  });
});
