import { Accounts } from "@crown/core";
import { authenticatorCodeAt } from "@crown/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { b64, operatorAccount, PASSWORD, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

/**
 * Two-step sign-in over HTTP (issue 44): the answers when the second step fails, recovery codes,
 * passkey challenges that say nothing about who has an account, the admin's reset, and the passwords
 * attackers try first, in English and Spanish.
 */
describe("two-step sign-in over HTTP (PGlite)", () => {
  let s: TestServer;
  let nurse: { id: string; email: string; token: string };
  beforeAll(async () => {
    s = await startTestServer("pglite");
    // The harness sets up the nurse's authenticator app on this first sign-in (withSecondStep).
    nurse = await operatorAccount(s, "physician_staff", { firstName: "Nia", lastName: "Okafor" });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  const signIn = (body: Record<string, unknown>) => s.rawPost("/user/sign-in", { device_type: "web", ...body });

  it("never says whether the password was right when the second step fails", async () => {
    const { secret } = s.secondFactorOf(nurse.email)!;
    const step = await signIn({ email: nurse.email, password: b64(PASSWORD) });
    expect(step.status).toBe(403);
    expect(step.json.status).toBe("SecondFactorRequired");
    expect(step.json.results?.token).toBeUndefined();

    const wrongCode = String((Number(authenticatorCodeAt(secret)) + 1) % 1_000_000).padStart(6, "0");
    const answers = [
      await signIn({ email: nurse.email, password: b64("Wrong-pass-93!"), code: authenticatorCodeAt(secret) }),
      await signIn({ email: nurse.email, password: b64(PASSWORD), code: wrongCode }),
      await signIn({ email: uniqueEmail("nobody"), password: b64(PASSWORD), code: wrongCode }),
      await signIn({ email: nurse.email, password: b64(PASSWORD), code: "zzzz-zzzz-zzzz" }),
    ];
    for (const a of answers) {
      expect(a.status).toBe(422);
      expect(a.json).toEqual(answers[0]!.json);
    }
    expect(answers[0]!.json.errors).toEqual({ email: ["The email, password or code do not match our records."] });
  });

  it("a recovery code signs in once; the session then reaches practice calls", async () => {
    const code = s.secondFactorOf(nurse.email)!.codes.shift()!;
    const first = await signIn({ email: nurse.email, password: b64(PASSWORD), code });
    expect(first.status).toBe(200);
    expect((await s.post("/physician/staff/list", {}, first.json.results.token)).status).not.toBe(403);
    expect((await signIn({ email: nurse.email, password: b64(PASSWORD), code })).status).toBe(422);
  });

  it("passkey challenges answer alike for an unknown address and an account without passkeys", async () => {
    const known = await s.rawPost("/user/sign-in/passkey/options", { email: nurse.email });
    const unknown = await s.rawPost("/user/sign-in/passkey/options", { email: uniqueEmail("nobody") });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const shape = (o: Record<string, unknown>) => ({ ...o, challenge: "*" });
    expect(shape(known.json.results.options)).toEqual(shape(unknown.json.results.options));
    expect(known.json.results.options.allowCredentials).toEqual([]);
    // A made-up answer is refused as a field error, never a 5xx.
    const bogus = await s.rawPost("/user/sign-in/passkey", { response: { id: "abc", response: { clientDataJSON: "e30" } } });
    expect(bogus.status).toBe(422);
  });

  it("an admin's reset ends the nurse's sessions, is audited and e-mailed; the nurse sets it up again", async () => {
    const adminEmail = uniqueEmail("admin");
    await s.services.run(Accounts.createVerifiedUser({ email: adminEmail, password: PASSWORD, type: "admin", firstName: "Ada", lastName: "Admin" }));
    const admin = (await s.post("/user/sign-in", { email: adminEmail, password: b64(PASSWORD) })).json.results.token as string;
    const session = (await signIn({ email: nurse.email, password: b64(PASSWORD), code: s.secondFactorOf(nurse.email)!.codes.shift()! })).json.results.token as string;
    expect((await s.post("/admin/users/second-factor/reset", { identifier: nurse.id }, session)).status).toBe(403);
    const reset = await s.post("/admin/users/second-factor/reset", { identifier: nurse.id }, admin);
    expect(reset.status).toBe(200);
    const audited = await s.get("/admin/audit-events?action=account.second_factor_reset", admin);
    expect(audited.json.results.data).toHaveLength(1);
    expect(JSON.stringify(audited.json.results.data[0])).toContain(nurse.id);
    expect((await s.get("/user/profile", session)).status).toBe(401);
    const mail = (await s.outbox()).filter((m) => m.to.includes(nurse.email)).at(-1);
    expect(mail?.subject).toBe("Your Crown two-step sign-in was reset");
    const again = await signIn({ email: nurse.email, password: b64(PASSWORD) });
    expect(again.status).toBe(200);
    expect(again.json.results.step).toBe("secondFactor");
    expect((await s.post("/physician/staff/list", {}, again.json.results.token)).json.status).toBe("SecondFactorSetupRequired");
    expect((await s.post("/admin/users/second-factor/reset", { identifier: nurse.id }, admin)).status).toBe(409);
  });

  it("refuses passwords attackers try first at sign-up, naming the reason, in English and Spanish", async () => {
    const body = { first_name: "Pat", last_name: "Lee", email: uniqueEmail("weak"), password: b64("Summer2024!"), phone: "5551234567", type: "parent", register_type: "normal" };
    const en = await s.post("/user/sign-up", body);
    expect(en.status).toBe(422);
    expect(en.json.errors.password).toEqual(["This password is one attackers try first: it is, or is built on, a commonly used password. Please choose another."]);
    const es = await s.call("POST", "/user/sign-up", { body, language: "es" });
    expect(es.status).toBe(422);
    expect(es.json.errors.password[0]).toContain("atacantes");
  });
});
