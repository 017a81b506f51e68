import type { Browser, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium, openTab, screenshotBoth } from "./helpers/browser.ts";
import { signInThroughForm } from "./helpers/flows.ts";
import { type CrownServer, DEMO, startCrown } from "./helpers/server.ts";

/**
 * Support chat in a real browser: a parent writes from the widget, support answers from the inbox,
 * and the parent sees the answer (and the unread badge) live, over the tab's event stream.
 */

let server: CrownServer;
let browser: Browser;

beforeAll(async () => {
  server = await startCrown({ CHAT_EMAIL_DELAY_SECONDS: "3600" });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Signs in through the form and gets past the first-login disclaimer if it shows. */
const signIn = async (page: Page, email: string) => {
  await signInThroughForm(page, email, server.password(email));
  await page.waitForURL((u) => u.pathname !== "/", { timeout: 20_000 });
};

/** The demo accounts sign in for the first time: the disclaimer dialog (modal) comes first. */
const passDisclaimer = async (page: Page) => {
  const dialog = page.getByRole("alertdialog", { name: "Disclaimer" });
  const shown = await dialog.waitFor({ timeout: 5000 }).then(() => true, () => false);
  if (!shown) return;
  await dialog.getByText("I have read the Disclaimer").click();
  await dialog.getByRole("button", { name: "Continue" }).click();
  await dialog.waitFor({ state: "detached" });
};

describe("support chat", () => {
  test("a parent writes, support answers from the inbox, and the parent sees it live", async () => {
    const parent = await openTab(browser, server.url);
    const streams: string[] = [];
    parent.page.on("request", (r) => {
      if (new URL(r.url()).pathname.endsWith("/api/v1/en/events")) streams.push(r.url());
    });
    await signIn(parent.page, DEMO.parent);
    await passDisclaimer(parent.page);
    await parent.page.goto("/dashboard");
    await passDisclaimer(parent.page);
    const launcher = parent.page.getByRole("button", { name: /^Chat with support/ });
    await launcher.waitFor({ timeout: 20_000 });
    await launcher.click();
    const panel = parent.page.getByRole("dialog", { name: "Chat with Crown support" });
    await panel.waitFor();
    await panel.getByLabel("Message to Crown support").fill("Hello, how often should I upload photos?");
    await panel.getByRole("button", { name: "Send" }).click();
    await panel.getByTestId("chat-message").filter({ hasText: "Hello, how often should I upload photos?" }).waitFor();

    const support = await openTab(browser, server.url);
    await signIn(support.page, "reviewer@demo.crown");
    await support.page.goto("/support");
    await support.page.getByRole("heading", { level: 1, name: "Support inbox" }).waitFor();
    const row = support.page.getByTestId("support-conversation").filter({ hasText: "Maya Parent" });
    await row.waitFor({ timeout: 20_000 });
    await row.getByText("1 unread").waitFor();
    await row.click();
    const thread = support.page.getByRole("region", { name: "Conversation" });
    await thread.getByText("Hello, how often should I upload photos?").waitFor();
    // The context panel: the user's babies and latest reports.
    await support.page.getByRole("complementary", { name: "About this user" }).getByRole("heading", { name: "Babies" }).waitFor();
    await screenshotBoth(support.page, "support-inbox");

    await thread.getByLabel("Reply").fill("Once a month until month 7. Happy to help!");
    await thread.getByRole("button", { name: "Send" }).click();
    await thread.getByText("Once a month until month 7. Happy to help!").waitFor();

    // The parent's open panel shows the answer without a reload.
    await panel.getByText("Once a month until month 7. Happy to help!").waitFor({ timeout: 15_000 });
    // The stream opened with a single-use ticket, never with the session token in its URL.
    expect(streams.length).toBeGreaterThan(0);
    for (const url of streams) {
      expect(new URL(url).searchParams.get("ticket")).toMatch(/^lt2\./);
      expect(new URL(url).searchParams.has("token")).toBe(false);
    }
    // Support's last message shows as seen once the parent's open panel read it.
    await thread.getByText("Seen").waitFor({ timeout: 15_000 });

    // With the panel closed, the next answer lights the unread badge live.
    await panel.getByRole("button", { name: "Close chat" }).click();
    await thread.getByLabel("Reply").fill("One more tip: keep the baby calm.");
    await thread.getByRole("button", { name: "Send" }).click();
    await parent.page.getByRole("button", { name: "Chat with support, 1 unread" }).waitFor({ timeout: 15_000 });
    await screenshotBoth(parent.page, "chat-widget-unread");
    await parent.page.getByRole("button", { name: /^Chat with support/ }).click();
    await panel.getByText("One more tip: keep the baby calm.").waitFor();
    await parent.page.getByRole("button", { name: "Chat with support", exact: true }).waitFor({ timeout: 15_000 });
    await screenshotBoth(parent.page, "chat-widget");

    expect(parent.errors, parent.errors.join("\n")).toEqual([]);
    expect(support.errors, support.errors.join("\n")).toEqual([]);
    await parent.context.close();
    await support.context.close();
  });

  test("a visitor on the public pages writes with an e-mail address and reads support's answer", async () => {
    const visitor = await openTab(browser, server.url);
    await visitor.page.goto("/");
    await visitor.page.getByRole("button", { name: "Chat with support" }).click();
    const panel = visitor.page.getByRole("dialog", { name: "Chat with Crown support" });
    const email = `visitor.${Date.now().toString(36)}@example.test`;
    await panel.getByLabel("Your e-mail (we answer there too)").fill(email);
    await panel.getByLabel("Your name (optional)").fill("Vera");
    await panel.getByLabel("Message to Crown support").fill("Do you ship kits to Canada?");
    await panel.getByRole("button", { name: "Send" }).click();
    await panel.getByTestId("chat-message").filter({ hasText: "Do you ship kits to Canada?" }).waitFor();

    const support = await openTab(browser, server.url);
    await signIn(support.page, "admin@demo.crown");
    await support.page.goto("/support");
    const row = support.page.getByTestId("support-conversation").filter({ hasText: email });
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    const thread = support.page.getByRole("region", { name: "Conversation" });
    await thread.getByLabel("Reply").fill("Yes, we ship to Canada.");
    await thread.getByRole("button", { name: "Send" }).click();
    // The visitor has no session (no stream): the open panel asks every 10 seconds.
    await panel.getByText("Yes, we ship to Canada.").waitFor({ timeout: 20_000 });
    expect(visitor.errors, visitor.errors.join("\n")).toEqual([]);
    await visitor.context.close();
    await support.context.close();
  });
});
