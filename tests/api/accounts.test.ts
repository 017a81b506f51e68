import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { b64, databaseKinds, PASSWORD, signUpVerified, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

const PNG_1x1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const PASSWORD_RULE =
  "Password must contain minimum 8 characters with atleast one upper case, one lowercase, one number and one special characters (!@#$%^&*-_)";

describe.each(await databaseKinds())("accounts API on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const signUpBody = (overrides: Record<string, unknown> = {}) => ({
    first_name: "Jamie",
    last_name: "Rivera",
    email: uniqueEmail("signup"),
    password: b64(PASSWORD),
    phone: "5559876543",
    type: "parent",
    register_type: "normal",
    ...overrides,
  });

  test("sign-up answers every validation message of the spec per field", async () => {
    const empty = await server.post("/user/sign-up", {});
    expect(empty.status).toBe(422);
    expect(empty.json.errors).toMatchObject({
      first_name: ["First name is required"],
      last_name: ["Last name is required"],
      email: ["Email is required"],
      password: ["Password is required"],
      phone: ["Mobile number is required"],
    });
    expect(empty.json.message).toBe("First name is required");
    const bad = await server.post("/user/sign-up", signUpBody({ email: "not-an-email", password: b64("short"), phone: "12345", first_name: "   " }));
    expect(bad.status).toBe(422);
    expect(bad.json.errors.email).toEqual(["Email is invalid"]);
    expect(bad.json.errors.password).toEqual([PASSWORD_RULE]);
    expect(bad.json.errors.phone).toEqual(["Mobile number is invalid"]);
    expect(bad.json.errors.first_name).toEqual(["First name is required"]);
    const notBase64 = await server.post("/user/sign-up", signUpBody({ password: "Not base64!" }));
    expect(notBase64.status).toBe(422);
    expect(Object.keys(notBase64.json.errors)).toEqual(["password"]);
  });

  test("a parent signs up, verifies from the e-mailed link once, and signs in needing baby details", async () => {
    const body = signUpBody();
    const signUp = await server.post("/user/sign-up", body);
    expect(signUp.status).toBe(201);
    expect(signUp.json.results).toMatchObject({ email: body.email, type: "parent", status: "EmailVerificationRequired" });
    const duplicate = await server.post("/user/sign-up", body);
    expect(duplicate.status).toBe(422);
    expect(duplicate.json.errors.email).toEqual(["The email has already been taken."]);

    const before = await server.post("/user/sign-in", { email: body.email, password: b64(PASSWORD) });
    expect(before.status).toBe(403);
    expect(before.json.status).toBe("EmailVerificationRequired");

    const mail = (await server.outbox()).filter((m) => m.to.includes(body.email)).at(-1)!;
    expect(mail.subject).toMatch(/verify/i);
    expect(mail.text).not.toContain(PASSWORD);
    const link = new URL(server.findLink(mail.text, "/verify-email")!);
    const q = link.searchParams;
    const path = `/email/verify/${q.get("id")}/${q.get("token")}?expires=${q.get("expires")}&signature=${q.get("signature")}`;
    const tampered = await server.get(`/email/verify/${q.get("id")}/${q.get("token")}?expires=${q.get("expires")}&signature=AAAA${q.get("signature")!.slice(4)}`);
    expect(tampered.status).toBe(422);
    const verified = await server.get(path);
    expect(verified.status).toBe(200);
    expect(verified.json.results.status).toBe("AdditionalInformationRequired");
    const again = await server.get(path);
    expect(again.status).toBe(200);
    expect(again.json.message).toMatch(/already verified/);

    const signIn = await server.post("/user/sign-in", { email: body.email.toUpperCase(), password: b64(PASSWORD), device_type: "web" });
    expect(signIn.status).toBe(200);
    expect(signIn.json.results).toMatchObject({ status: "AdditionalInformationRequired", type: "parent", first_time_login: true, is_quiz_time: true });
    expect(signIn.json.results.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  test("resend and recover answer the same for unknown addresses and mail no link; recover does the same work both ways", async () => {
    const before = (await server.outbox()).length;
    const resend = await server.post("/email/verify", { email: uniqueEmail("nobody") });
    expect(resend.status).toBe(200);
    expect(resend.json.message).toBe("Verification link sent successfully. Please check your email inbox");
    expect((await server.outbox()).length).toBe(before);
    const nobody = uniqueEmail("nobody");
    const recover = await server.post("/user/password/recover", { email: nobody });
    expect(recover.status).toBe(200);
    expect(recover.json.message).toBe("Reset password link successfully sent to your email address");
    // Like a known address: one mail through the queue (no timing oracle), without a link.
    const sent = (await server.outbox()).filter((m) => m.to.includes(nobody));
    expect(sent).toHaveLength(1);
    expect(server.findLink(sent[0]!.text, "/reset-password")).toBeFalsy();
    const invalid = await server.post("/user/password/recover", { email: "nope" });
    expect(invalid.status).toBe(422);
    expect(invalid.json.errors.email).toEqual(["Email is invalid"]);
  });

  test("physician becomes Active, other waits for approval", async () => {
    const physician = await signUpVerified(server, "physician");
    expect(physician.signIn.results).toMatchObject({ status: "Active", type: "physician", first_time_login: true });
    const other = await signUpVerified(server, "other");
    expect(other.signIn.results.status).toBe("WaitingApproval");
  });

  test("profile: read, update (e-mail never, fax only for physicians), photo png/jpeg only, binary GET", async () => {
    const parent = await signUpVerified(server, "parent");
    const profile = await server.get("/user/profile", parent.token);
    expect(profile.status).toBe(200);
    expect(profile.json.results).toMatchObject({ email: parent.email, first_name: "Alex", photo: null });
    expect(profile.json.results).not.toHaveProperty("fax_number");

    const invalid = await server.post("/user/profile", { first_name: "", last_name: "M", phone: "12" }, parent.token);
    expect(invalid.status).toBe(422);
    expect(invalid.json.errors).toMatchObject({ first_name: ["First name is required"], phone: ["Mobile number is invalid"] });
    const updated = await server.post("/user/profile", { first_name: " Sam ", last_name: "Lee", phone: "5550001111", email: "hijack@example.org", fax_number: "5551112222" }, parent.token);
    expect(updated.status).toBe(200);
    expect(updated.json.message).toBe("Profile updated successfully");
    expect(updated.json.results).toMatchObject({ first_name: "Sam", last_name: "Lee", phone: "5550001111", email: parent.email });
    expect(updated.json.results).not.toHaveProperty("fax_number");

    const physician = await signUpVerified(server, "physician");
    const fax = await server.post("/user/profile", { first_name: "Dana", last_name: "Ng", phone: "5550001111", fax_number: "555-111-2222" }, physician.token);
    expect(fax.json.results.fax_number).toBe("555-111-2222");

    const gif = new FormData();
    gif.set("profile_photo_action", "update");
    gif.set("profile_photo", new Blob([Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1")], { type: "image/png" }), "fake.png");
    const rejected = await server.call("POST", "/user/profile", { form: gif, token: parent.token });
    expect(rejected.status).toBe(422);
    expect(rejected.json.errors.profile_photo).toEqual(["The profile photo must be a PNG or JPEG image."]);

    const png = new FormData();
    png.set("profile_photo_action", "update");
    png.set("profile_photo", new Blob([PNG_1x1], { type: "image/png" }), "me.png");
    const uploaded = await server.call("POST", "/user/profile", { form: png, token: parent.token });
    expect(uploaded.status).toBe(200);
    expect(uploaded.json.results.photo).toMatch(/profile-photo/);
    const photo = await server.call("GET", "/user/profile-photo", { token: parent.token });
    expect(photo.status).toBe(200);
    expect(photo.response.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await photo.response.arrayBuffer()).equals(PNG_1x1)).toBe(true);

    const remove = new FormData();
    remove.set("profile_photo_action", "remove");
    const removed = await server.call("POST", "/user/profile", { form: remove, token: parent.token });
    expect(removed.status).toBe(200);
    expect(removed.json.results.photo).toBeNull();
    expect((await server.get("/user/profile-photo", parent.token)).status).toBe(404);
  });

  test("401 without a token, with a bad token, and after sign-out", async () => {
    const parent = await signUpVerified(server, "parent");
    for (const token of [null, "not-a-real-token", `${parent.token}x`]) {
      const r = await server.get("/user/profile", token);
      expect(r.status).toBe(401);
      expect(r.json.message).toBe("You are not authorised to perform this action");
    }
    expect((await server.get("/user/sign-out", parent.token)).status).toBe(200);
    expect((await server.get("/user/profile", parent.token)).status).toBe(401);
  });

  test("change password revokes other sessions; wrong old password is a field error", async () => {
    const parent = await signUpVerified(server, "parent");
    const second = await server.post("/user/sign-in", { email: parent.email, password: b64(PASSWORD) });
    const wrong = await server.post("/user/password/change", { old_password: b64("Wrong-pass-1"), new_password: b64("Brand-new-7!") }, parent.token);
    expect(wrong.status).toBe(422);
    expect(wrong.json.errors.old_password).toEqual(["The old password is incorrect."]);
    const weak = await server.post("/user/password/change", { old_password: b64(PASSWORD), new_password: b64("weak") }, parent.token);
    expect(weak.json.errors.new_password).toEqual([PASSWORD_RULE]);
    const changed = await server.post("/user/password/change", { old_password: b64(PASSWORD), new_password: b64("Brand-new-7!") }, parent.token);
    expect(changed.status).toBe(200);
    expect(changed.json.message).toBe("Password changed successfully");
    expect((await server.get("/user/profile", parent.token)).status).toBe(200);
    expect((await server.get("/user/profile", second.json.results.token)).status).toBe(401);
    expect((await server.post("/user/sign-in", { email: parent.email, password: b64("Brand-new-7!") })).status).toBe(200);
  });

  test("forgot and reset: the link works once, and revokes every session", async () => {
    const parent = await signUpVerified(server, "parent");
    expect((await server.post("/user/password/recover", { email: parent.email })).status).toBe(200);
    const mail = (await server.outbox()).filter((m) => m.to.includes(parent.email)).at(-1)!;
    const link = new URL(server.findLink(mail.text, "/reset-password")!);
    expect(link.searchParams.get("email")).toBe(parent.email);
    const token = link.searchParams.get("token")!;
    const mismatch = await server.post("/user/password/reset", { token, password: b64("weak") });
    expect(mismatch.status).toBe(422);
    const reset = await server.post("/user/password/reset", { token, password: b64("Reset-pass-9!"), email: parent.email });
    expect(reset.status).toBe(200);
    expect(reset.json.message).toBe("Password changed successfully");
    const reused = await server.post("/user/password/reset", { token, password: b64("Other-pass-9!") });
    expect(reused.status).toBe(422);
    expect(reused.json.errors.token).toEqual(["This password reset link is invalid or has expired."]);
    expect((await server.get("/user/profile", parent.token)).status).toBe(401);
    expect((await server.post("/user/sign-in", { email: parent.email, password: b64("Reset-pass-9!") })).status).toBe(200);
  });

  test("repeated failed sign-ins answer 429 with Retry-After, even for the right password", async () => {
    const parent = await signUpVerified(server, "parent");
    const statuses: number[] = [];
    const ip = "203.0.113.40";
    for (let i = 0; i < 6; i++) statuses.push((await server.call("POST", "/user/sign-in", { body: { email: parent.email, password: b64("Wrong-pass-1!") }, ip })).status);
    expect(statuses.slice(0, 5).every((s) => s === 422)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const locked = await server.call("POST", "/user/sign-in", { body: { email: parent.email, password: b64(PASSWORD) }, ip });
    expect(locked.status).toBe(429);
    expect(Number(locked.response.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("failures from one address do not lock the owner out elsewhere, and a reset link lets the owner in at once", async () => {
    const parent = await signUpVerified(server, "parent");
    const signIn = (password: string, ip: string) => server.call("POST", "/user/sign-in", { body: { email: parent.email, password: b64(password) }, ip });
    for (let i = 0; i < 6; i++) await signIn("Wrong-pass-1!", "203.0.113.50");
    expect((await signIn(PASSWORD, "203.0.113.50")).status).toBe(429);
    expect((await signIn(PASSWORD, "198.51.100.20")).status).toBe(200);
    // Guessers spread over many addresses slow everyone down; the e-mailed reset link is the owner's way in.
    for (let i = 0; i < 25; i++) await signIn("Wrong-pass-1!", `203.0.114.${i + 1}`);
    expect((await signIn(PASSWORD, "198.51.100.21")).status).toBe(429);
    expect((await server.post("/user/password/recover", { email: parent.email })).status).toBe(200);
    const mail = (await server.outbox()).filter((m) => m.to.includes(parent.email)).at(-1)!;
    const link = new URL(server.findLink(mail.text, "/reset-password")!);
    const reset = await server.post("/user/password/reset", { token: link.searchParams.get("token"), email: parent.email, password: b64("Fresh-start-8!"), confirm_password: b64("Fresh-start-8!") });
    expect(reset.status).toBe(200);
    expect((await signIn("Fresh-start-8!", "198.51.100.21")).status).toBe(200);
  });

  test("security headers, request ids, and the OpenAPI document", async () => {
    const r = await server.call("GET", "/openapi.json");
    expect(r.status).toBe(200);
    expect(r.response.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
    expect(r.response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(r.json.openapi).toBe("3.1.0");
    expect(Object.keys(r.json.paths)).toEqual(expect.arrayContaining(["/user/sign-up", "/user/sign-in", "/email/verify/{id}/{token}", "/user/profile"]));
    expect(r.json.paths["/user/sign-up"].post.requestBody.content["application/json"].schema.required).toEqual(
      expect.arrayContaining(["first_name", "email", "password", "phone", "type"]),
    );
    const bigBody = await server.call("POST", "/user/sign-in", { body: { email: "x@y.org", password: "a".repeat(2_000_000) } });
    expect(bigBody.status).toBe(413);
  });

  test("401 without a token and with a bad token on every authenticated accounts call", async () => {
    const parent = await signUpVerified(server, "parent");
    const photo = () => {
      const form = new FormData();
      form.set("profile_photo_action", "update");
      form.set("profile_photo", new Blob([PNG_1x1], { type: "image/png" }), "me.png");
      return form;
    };
    const removePhoto = () => {
      const form = new FormData();
      form.set("profile_photo_action", "remove");
      return form;
    };
    const calls: Array<[string, (token: string | null) => ReturnType<TestServer["call"]>]> = [
      ["POST /user/password/change", (t) => server.post("/user/password/change", { old_password: b64(PASSWORD), new_password: b64("Brand-new-7!") }, t)],
      ["GET /user/profile", (t) => server.get("/user/profile", t)],
      ["POST /user/profile", (t) => server.post("/user/profile", { first_name: "Eve", last_name: "Hacker", phone: "5550001111" }, t)],
      ["POST /user/profile (photo update)", (t) => server.call("POST", "/user/profile", { form: photo(), token: t })],
      ["POST /user/profile (photo remove)", (t) => server.call("POST", "/user/profile", { form: removePhoto(), token: t })],
      ["GET /user/profile-photo", (t) => server.get("/user/profile-photo", t)],
      ["POST /user/remove-account", (t) => server.post("/user/remove-account", { password: b64(PASSWORD) }, t)],
      ["GET /user/sign-out", (t) => server.get("/user/sign-out", t)],
    ];
    for (const [name, call] of calls) {
      for (const token of [null, "not-a-real-token", `${parent.token}x`]) {
        const answer = await call(token);
        expect(answer.status, `${name} with ${token ?? "no token"}`).toBe(401);
        expect(answer.json.message).toBe("You are not authorised to perform this action");
      }
    }
    // Nothing was changed by the refused calls: the profile, the password and the session are as before.
    const profile = await server.get("/user/profile", parent.token);
    expect(profile.status).toBe(200);
    expect(profile.json.results).toMatchObject({ first_name: "Alex", last_name: "Morgan", photo: null });
    expect((await server.post("/user/sign-in", { email: parent.email, password: b64(PASSWORD) })).status).toBe(200);
  });

  test("sign-up, recover and resend answer 429 with Retry-After, per address and per account", async () => {
    const expectLimited = (answer: Awaited<ReturnType<TestServer["call"]>>) => {
      expect(answer.status).toBe(429);
      expect(answer.json.message).toBe("Too many attempts. Please try again later.");
      expect(Number(answer.response.headers.get("retry-after"))).toBeGreaterThan(0);
    };
    // Sign-up: 10 an hour from one address (whatever the e-mails), 5 an hour for one e-mail (whatever the addresses).
    const signUpFrom = (ip: string, body = signUpBody()) => server.call("POST", "/user/sign-up", { body, ip });
    for (let i = 0; i < 10; i++) expect((await signUpFrom("192.0.2.10")).status).toBe(201);
    expectLimited(await signUpFrom("192.0.2.10"));
    expect((await signUpFrom("192.0.2.11")).status).toBe(201);
    const one = signUpBody();
    const perAccount: number[] = [];
    for (let i = 0; i < 5; i++) perAccount.push((await signUpFrom(`192.0.2.${20 + i}`, one)).status);
    expect(perAccount).toEqual([201, 422, 422, 422, 422]);
    expectLimited(await signUpFrom("192.0.2.30", one));

    // Recover (forgot password) and resend: 3 mails an hour per account, 10 per address, known or not.
    const parent = await signUpVerified(server, "parent");
    for (let i = 0; i < 3; i++) expect((await server.call("POST", "/user/password/recover", { body: { email: parent.email }, ip: `192.0.2.${40 + i}` })).status).toBe(200);
    expectLimited(await server.call("POST", "/user/password/recover", { body: { email: parent.email }, ip: "192.0.2.50" }));
    for (let i = 0; i < 10; i++) expect((await server.call("POST", "/user/password/recover", { body: { email: uniqueEmail("nobody") }, ip: "192.0.2.60" })).status).toBe(200);
    expectLimited(await server.call("POST", "/user/password/recover", { body: { email: uniqueEmail("nobody") }, ip: "192.0.2.60" }));

    const unverified = signUpBody();
    expect((await server.post("/user/sign-up", unverified)).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await server.call("POST", "/email/verify", { body: { email: unverified.email }, ip: `192.0.2.${70 + i}` })).status).toBe(200);
    expectLimited(await server.call("POST", "/email/verify", { body: { email: unverified.email }, ip: "192.0.2.80" }));
    for (let i = 0; i < 10; i++) expect((await server.call("POST", "/email/verify", { body: { email: uniqueEmail("nobody") }, ip: "192.0.2.90" })).status).toBe(200);
    expectLimited(await server.call("POST", "/email/verify", { body: { email: uniqueEmail("nobody") }, ip: "192.0.2.90" }));
  });

  test("resend, reset, change password and profile answer the spec's messages per field", async () => {
    const resendEmpty = await server.post("/email/verify", {});
    expect(resendEmpty.status).toBe(422);
    expect(resendEmpty.json.errors).toEqual({ email: ["Email is required"] });
    expect((await server.post("/email/verify", { email: "nope" })).json.errors).toEqual({ email: ["Email is invalid"] });
    expect((await server.post("/user/password/recover", {})).json.errors).toEqual({ email: ["Email is required"] });

    const resetEmpty = await server.post("/user/password/reset", {});
    expect(resetEmpty.status).toBe(422);
    expect(resetEmpty.json.errors).toEqual({ token: ["Token is required"], password: ["Password is required"] });
    expect((await server.post("/user/password/reset", { token: "  ", password: b64("weak") })).json.errors).toEqual({ token: ["Token is required"], password: [PASSWORD_RULE] });

    const parent = await signUpVerified(server, "parent");
    const changeEmpty = await server.post("/user/password/change", {}, parent.token);
    expect(changeEmpty.status).toBe(422);
    expect(changeEmpty.json.errors).toEqual({ old_password: ["Old password is required"], new_password: ["New password is required"] });
    expect((await server.post("/user/password/change", { old_password: "", new_password: b64("Brand-new-7!") }, parent.token)).json.errors).toEqual({ old_password: ["Old password is required"] });

    const noLastName = await server.post("/user/profile", { first_name: "Sam", last_name: "  ", phone: "5550001111" }, parent.token);
    expect(noLastName.status).toBe(422);
    expect(noLastName.json.errors).toEqual({ last_name: ["Last name is required"] });
    const profileEmpty = await server.post("/user/profile", {}, parent.token);
    expect(profileEmpty.json.errors).toEqual({ first_name: ["First name is required"], last_name: ["Last name is required"], phone: ["Mobile number is required"] });
    expect((await server.get("/user/profile", parent.token)).json.results).toMatchObject({ first_name: "Alex", last_name: "Morgan" });
  });

  test("an expired password answers 403 PasswordExpired with the spec's message until it is reset", async () => {
    const parent = await signUpVerified(server, "parent");
    const { sql } = await import("kysely");
    // Default PASSWORD_MAX_AGE_DAYS is 365: the password was last changed 366 days ago.
    await sql`update users set password_changed_at = now() - interval '366 days' where id = ${parent.identifier}`.execute(server.services.database.db);
    const expired = await server.post("/user/sign-in", { email: parent.email, password: b64(PASSWORD), device_type: "web" });
    expect(expired.status).toBe(403);
    expect(expired.json).toMatchObject({ message: "Your password has expired. Please reset your password.", status: "PasswordExpired" });
    expect(expired.json.results?.token).toBeUndefined();
    // A wrong password is still only a wrong password: the expiry is told to the owner alone.
    expect((await server.post("/user/sign-in", { email: parent.email, password: b64("Wrong-pass-1!") })).status).toBe(422);

    expect((await server.post("/user/password/recover", { email: parent.email })).status).toBe(200);
    const mail = (await server.outbox()).filter((m) => m.to.includes(parent.email)).at(-1)!;
    const token = new URL(server.findLink(mail.text, "/reset-password")!).searchParams.get("token")!;
    expect((await server.post("/user/password/reset", { token, password: b64("Fresh-pass-8!") })).status).toBe(200);
    expect((await server.post("/user/sign-in", { email: parent.email, password: b64("Fresh-pass-8!") })).status).toBe(200);
  });

  test("the audit log records sign-in success and failure, sign-out, and profile reads, with no passwords", async () => {
    const parent = await signUpVerified(server, "parent");
    await server.post("/user/sign-in", { email: parent.email, password: b64("Wrong-pass-1!") });
    await server.get("/user/profile", parent.token);
    await server.get("/user/sign-out", parent.token);
    const { sql } = await import("kysely");
    const rows = await sql<{ action: string; details: unknown; ip: string | null }>`select action, details, ip from audit_events where actor_id = ${parent.identifier} or details::text like ${"%" + parent.email + "%"} order by id`.execute(server.services.database.db);
    const actions = rows.rows.map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["account.sign_up", "account.sign_in", "account.sign_in_failed", "profile.read", "account.sign_out"]));
    expect(rows.rows.every((r) => r.ip !== null)).toBe(true);
    expect(JSON.stringify(rows.rows)).not.toContain(PASSWORD);
  });
});
