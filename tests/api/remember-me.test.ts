import { Accounts } from "@crown/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { b64, databaseKinds, PASSWORD, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

/**
 * Issue 22 item 3 (ADR 32): sign-in answers the session's absolute end, `expires_at`, which the
 * portal uses as the Remember me cookie's expiry: 30 days for a parent who asks to be remembered,
 * 12 hours otherwise (and always for practice users), as api-contract.md sets the lifetimes.
 */

describe.each(await databaseKinds())("sign-in answers the session's absolute end on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const HOUR = 3_600_000;
  const signIn = async (type: "parent" | "physician", rememberMe: boolean) => {
    const email = uniqueEmail(type);
    await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type, firstName: "Rem", lastName: "Ember" }));
    const before = Date.now();
    const answer = await server.post("/user/sign-in", { email, password: b64(PASSWORD), remember_me: rememberMe });
    expect(answer.status).toBe(200);
    return { before, token: answer.json.results.token as string, expiresAt: Date.parse(answer.json.results.expires_at as string) };
  };

  test("30 days for a remembered parent, 12 hours otherwise; the token works until then", async () => {
    const remembered = await signIn("parent", true);
    expect(remembered.expiresAt - remembered.before).toBeGreaterThan(30 * 24 * HOUR - 60_000);
    expect(remembered.expiresAt - remembered.before).toBeLessThanOrEqual(30 * 24 * HOUR + 60_000);
    expect((await server.get("/user/profile", remembered.token)).status).toBe(200);

    for (const [type, remember] of [["parent", false], ["physician", true], ["physician", false]] as const) {
      const s = await signIn(type, remember);
      expect(Math.abs(s.expiresAt - s.before - 12 * HOUR), `${type} remember=${remember}`).toBeLessThan(60_000);
    }
  });
});
