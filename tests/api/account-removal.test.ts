import { Accounts, type UserType } from "@crown/core";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { b64, databaseKinds, PASSWORD, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";
import { flakyMailWorker } from "./mail-worker.ts";

interface Account {
  readonly identifier: string;
  readonly email: string;
  readonly token: string;
}

describe.each(await databaseKinds())("account removal requests on %s", (kind) => {
  let server: TestServer;
  let admin: Account;
  // The confirmation goes through the job queue (ADR 15); this worker sends it.
  let mail: Awaited<ReturnType<typeof flakyMailWorker>>;

  const account = async (type: UserType, firstName = "Pat"): Promise<Account> => {
    const email = uniqueEmail(type);
    const user = await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type, firstName, lastName: "Tester" }));
    const signIn = await server.post("/user/sign-in", { email, password: b64(PASSWORD), device_type: "web" });
    expect(signIn.status).toBe(200);
    return { identifier: user.id, email, token: signIn.json.results.token };
  };

  const auditCount = async (action: string, subject: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from audit_events where action = ${action} and subject_id = ${subject}`.execute(server.services.database.db)).rows[0]!.n;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await account("admin", "Ada");
    mail = await flakyMailWorker(server.services.database.db, server.services.run as never);
  });
  afterAll(async () => {
    await mail?.worker.stop();
    await server?.close();
  });

  test("needs a session (401) and the password (422 with the field's message)", async () => {
    expect((await server.post("/user/remove-account", { password: b64(PASSWORD) })).status).toBe(401);
    const parent = await account("parent");
    const missing = await server.post("/user/remove-account", {}, parent.token);
    expect(missing.status).toBe(422);
    expect(missing.json.errors).toMatchObject({ password: ["Password is required"] });
    const wrong = await server.post("/user/remove-account", { password: b64("Not-my-password-1") }, parent.token);
    expect(wrong.status).toBe(422);
    expect(wrong.json.errors).toMatchObject({ password: ["The password is incorrect."] });
    expect(await auditCount("account.removal_request_failed", parent.identifier)).toBe(1);
    expect(await auditCount("account.removal_requested", parent.identifier)).toBe(0);
    const list = await server.get("/admin/removal-requests", admin.token);
    expect(list.json.results.data.some((r: { user: { identifier: string } }) => r.user.identifier === parent.identifier)).toBe(false);
  });

  test("records the request once, audits it, e-mails the user and shows it to admins", async () => {
    const physician = await account("physician", "Paz");
    const first = await server.post("/user/remove-account", { password: b64(PASSWORD), reason: "  We moved away  " }, physician.token);
    expect(first.status).toBe(200);
    expect(first.json.message).toBe("Your account removal request has been received. We have sent a confirmation to your e-mail address.");
    expect(first.json.results).toMatchObject({ reason: "We moved away" });
    expect(typeof first.json.results.identifier).toBe("string");

    const again = await server.post("/user/remove-account", { password: b64(PASSWORD) }, physician.token);
    expect(again.status).toBe(200);
    expect(again.json.message).toContain("already received");
    expect(again.json.results.identifier).toBe(first.json.results.identifier);

    expect(await auditCount("account.removal_requested", physician.identifier)).toBe(1);
    const confirmations = async () => (await server.outbox()).filter((m) => m.to.includes(physician.email) && /remove your Crown account/.test(m.subject));
    for (let waited = 0; (await confirmations()).length === 0 && waited < 15_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300));
    const mails = await confirmations();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(physician.email);

    const list = await server.get("/admin/removal-requests", admin.token);
    expect(list.status).toBe(200);
    const row = list.json.results.data.find((r: { identifier: string }) => r.identifier === first.json.results.identifier);
    expect(row).toMatchObject({ reason: "We moved away", user: { identifier: physician.identifier, email: physician.email, type: "physician", status: "Active" } });
    expect(list.json.results).toMatchObject({ current_page: 1, per_page: 10 });

    // The account keeps working until an administrator handles the request.
    expect((await server.get("/user/profile", physician.token)).status).toBe(200);
  });

  test("only admins read the requests", async () => {
    const reviewer = await account("reviewer");
    const parent = await account("parent");
    expect((await server.get("/admin/removal-requests", reviewer.token)).status).toBe(403);
    expect((await server.get("/admin/removal-requests", parent.token)).status).toBe(403);
    expect((await server.get("/admin/removal-requests")).status).toBe(401);
  });
});

describe("GET /config", () => {
  test("sends each address (shop, webinar, app stores, help video, social sign-in) only when it is configured", async () => {
    const bare = await startTestServer("pglite");
    try {
      const r = await bare.get("/config");
      expect(r.status).toBe(200);
      // No example address stands in for an operator's (issue 46): Buy Kits and Webinar then show Crown's own pages.
      expect(r.json.results).toEqual({});
    } finally {
      await bare.close();
    }
    const set = await startTestServer("pglite", {
      APP_STORE_URL: "https://apps.apple.com/app/example/id123",
      PLAY_STORE_URL: "https://play.google.com/store/apps/details?id=org.example",
      HELP_VIDEO_URL: "https://video.example.org/referral",
      BUY_KITS_URL: "https://shop.crown-kits.test/order",
      WEBINAR_URL: "https://meet.crown-webinar.test/book",
      GOOGLE_SIGN_IN_URL: "https://sso.crown-clinic.test/google",
    });
    try {
      const results = (await set.get("/config")).json.results;
      expect(Object.keys(results).sort()).toEqual(["app_store_url", "buy_kits_url", "google_sign_in_url", "help_video_url", "play_store_url", "webinar_url"]);
      expect(results).toMatchObject({
        buy_kits_url: "https://shop.crown-kits.test/order",
        webinar_url: "https://meet.crown-webinar.test/book",
        google_sign_in_url: "https://sso.crown-clinic.test/google",
        app_store_url: "https://apps.apple.com/app/example/id123",
        play_store_url: "https://play.google.com/store/apps/details?id=org.example",
        help_video_url: "https://video.example.org/referral",
      });
    } finally {
      await set.close();
    }
  });
});
