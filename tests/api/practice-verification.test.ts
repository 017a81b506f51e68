import { Accounts } from "@crown/core";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { b64, databaseKinds, PASSWORD, signUpVerified, startTestServer, type TestServer, uniqueEmail, VALID_NPI } from "./harness.ts";

/**
 * A self-signed-up physician's practice is being verified until an admin verifies it (issue 15,
 * ADR 25): the physician signs in and signs the BAA, but is in no provider search, reaches no
 * patient and invites nobody until then.
 */
describe.each(await databaseKinds())("practice verification on %s", (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    const email = uniqueEmail("admin");
    await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type: "admin", firstName: "Ada", lastName: "Admin" }));
    admin = (await server.post("/user/sign-in", { email, password: b64(PASSWORD), device_type: "web" })).json.results.token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const signUp = (npi?: string) =>
    server.post("/user/sign-up", {
      first_name: "Daniel",
      last_name: "Okafor",
      email: uniqueEmail("dr"),
      password: b64(PASSWORD),
      phone: "5551234567",
      type: "physician",
      register_type: "normal",
      ...(npi === undefined ? {} : { npi }),
    });

  test("a physician signs up with an NPI number: 10 digits with the NPI check digit", async () => {
    const missing = await signUp();
    expect(missing.status).toBe(422);
    expect(missing.json.errors).toEqual({ npi: ["NPI number is required"] });
    for (const bad of ["1234567890", "123456789", "abcdefghij"]) {
      const wrong = await signUp(bad);
      expect(wrong.status, bad).toBe(422);
      expect(wrong.json.errors, bad).toEqual({ npi: ["NPI number must be 10 digits with a valid check digit"] });
    }
    expect((await signUp("123-456-7893")).status).toBe(201);
    // Parents give none.
    const parent = await server.post("/user/sign-up", { first_name: "P", last_name: "Q", email: uniqueEmail("p"), password: b64(PASSWORD), phone: "5551234567", type: "parent" });
    expect(parent.status).toBe(201);
  });

  test("being verified: BAA yes; search, patients and invitations no; an admin verifies (audited, e-mailed), then yes", async () => {
    const doctor = await signUpVerified(server, "physician");
    const profile = await server.get("/user/profile", doctor.token);
    expect(profile.json.results).toMatchObject({ practice_verification: "being_verified", npi: VALID_NPI });
    // The sign-in answer says so too: the portal shows the being-verified dashboard from it (ADR 60).
    const signIn = () => server.post("/user/sign-in", { email: doctor.email, password: b64(PASSWORD), device_type: "web" });
    expect((await signIn()).json.results.practice_verification).toBe("being_verified");
    const baa = await server.post("/user/sign-baa", { identifier: doctor.identifier, email: doctor.email, name: "Alex Morgan", covered_entity: "Morgan Pediatrics" }, doctor.token);
    expect(baa.status).toBe(200);

    const inSearch = async () => ((await server.get("/physicians?name=Morgan")).json.results as Array<{ identifier: string }>).some((p) => p.identifier === doctor.identifier);
    expect(await inSearch()).toBe(false);
    for (const [url, body] of [
      ["/patient/list", {}],
      ["/patient/add", { first_name: "Zoe", last_name: "Lane", date_of_birth: "2026-09-01", gender: "female", email: uniqueEmail("family") }],
      ["/physician/add-user", { email: uniqueEmail("nurse") }],
      ["/report/results", {}],
    ] as const) {
      const refused = await server.post(url, body, doctor.token);
      expect(refused.status, url).toBe(403);
      expect(refused.json, url).toMatchObject({ message: "Your practice is being verified. You can see patients and send invitations once Crown has verified it.", status: "PracticeBeingVerified" });
    }
    // Nobody was invited.
    expect((await server.outbox()).filter((m) => /invited you|added you/.test(m.subject))).toEqual([]);
    // A parent cannot choose the practice by its identifier either.
    const parent = await signUpVerified(server, "parent");
    const register = await server.post("/user/register-baby", { first_name: "Mia", last_name: "Lane", date_of_birth: "2026-09-01", gender: "female", relation: "mother", physician_identifier: doctor.identifier }, parent.token);
    expect(register.status).toBe(422);

    // The admin console lists the practice as awaiting verification, with what the admin checks; only for admins.
    const awaiting = async () => (await server.get("/admin/practices/awaiting-verification?per_page=50", admin)).json.results;
    const listed = (await awaiting()).data.find((p: { identifier: string }) => p.identifier === doctor.identifier);
    expect(listed).toMatchObject({ first_name: "Alex", npi: VALID_NPI, email: doctor.email, practice_name: "Morgan Pediatrics", practice_verification: "being_verified" });
    expect(listed.signed_up_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(listed.baa_signed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await server.get("/admin/practices/awaiting-verification", doctor.token)).status).toBe(403);
    expect((await server.get("/admin/practices/awaiting-verification?per_page=500", admin)).status).toBe(422);

    // Only an admin verifies.
    expect((await server.post("/admin/practices/verify", { physician_identifier: doctor.identifier }, doctor.token)).status).toBe(403);
    const verified = await server.post("/admin/practices/verify", { physician_identifier: doctor.identifier }, admin);
    expect(verified.status).toBe(200);
    expect(verified.json.results).toMatchObject({ identifier: doctor.identifier, practice_verification: "verified" });
    expect((await server.post("/admin/practices/verify", { physician_identifier: doctor.identifier }, admin)).status).toBe(409);
    const audited = await sql<{ n: number }>`select count(*)::int as n from audit_events where action = 'practice.verified' and subject_id = ${doctor.identifier}`.execute(server.services.database.db);
    expect(audited.rows[0]!.n).toBe(1);
    const mail = (await server.outbox()).filter((m) => m.to.includes(doctor.email) && m.subject === "Your practice is verified on Crown");
    expect(mail).toHaveLength(1);

    expect(await inSearch()).toBe(true);
    expect((await awaiting()).data.some((p: { identifier: string }) => p.identifier === doctor.identifier)).toBe(false);
    expect((await server.post("/patient/list", {}, doctor.token)).status).toBe(200);
    expect((await server.get("/user/profile", doctor.token)).json.results.practice_verification).toBe("verified");
    expect((await signIn()).json.results.practice_verification).toBe("verified");
  });
});
