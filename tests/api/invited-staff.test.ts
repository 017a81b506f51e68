import { Accounts } from "@crown/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { b64, databaseKinds, PASSWORD, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

/**
 * Issue 22 item 5: an invited staff member names themself when setting the first password (the
 * sign-up form's name rules), and the physician's staff list tells pending invitations from
 * active members.
 */

describe.each(await databaseKinds())("invited staff on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const invitationToken = async (email: string) => {
    const mail = (await server.outbox()).filter((m) => m.to.includes(email)).at(-1);
    const link = mail && server.findLink(mail.text, "/reset-password");
    if (!link) throw new Error("no invitation link");
    return new URL(link).searchParams.get("token")!;
  };

  test("the invitee must give a first and last name; the staff list shows pending, then the name and active", async () => {
    const email = uniqueEmail("doc");
    await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type: "physician", firstName: "Rosa", lastName: "Lind" }));
    const doctor = (await server.post("/user/sign-in", { email, password: b64(PASSWORD) })).json.results.token as string;
    await server.post("/user/sign-baa", { name: "Rosa Lind", covered_entity: "Lind Pediatrics" }, doctor);

    const nurseEmail = uniqueEmail("nurse");
    expect((await server.post("/physician/add-user", { email: nurseEmail, type: "nurse" }, doctor)).status).toBe(201);
    const pending = await server.post("/physician/staff/list", {}, doctor);
    expect(pending.json.results.data).toEqual([expect.objectContaining({ email: nurseEmail, name: "", state: "pending" })]);

    const token = await invitationToken(nurseEmail);
    const nameless = await server.post("/user/password/reset", { token, email: nurseEmail, password: b64(PASSWORD), first_name: "  ", last_name: "" });
    expect(nameless.status).toBe(422);
    expect(nameless.json).toEqual({ message: "First name is required", errors: { first_name: ["First name is required"], last_name: ["Last name is required"] } });
    // The refused attempt did not use up the link.
    const accepted = await server.post("/user/password/reset", { token, email: nurseEmail, password: b64(PASSWORD), first_name: " Nia ", last_name: "Okafor" });
    expect(accepted.status).toBe(200);

    const signIn = await server.post("/user/sign-in", { email: nurseEmail, password: b64(PASSWORD) });
    expect(signIn.json.results).toMatchObject({ first_name: "Nia", last_name: "Okafor", status: "Active" });
    const active = await server.post("/physician/staff/list", {}, doctor);
    expect(active.json.results.data).toEqual([expect.objectContaining({ email: nurseEmail, name: "Nia Okafor", state: "active" })]);
  });

  test("a password reset (not an invitation) asks no name", async () => {
    const email = uniqueEmail("parent");
    await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type: "parent", firstName: "Pat", lastName: "Reset" }));
    await server.post("/user/password/recover", { email });
    const mail = (await server.outbox()).filter((m) => m.to.includes(email)).at(-1);
    const token = new URL(server.findLink(mail!.text, "/reset-password")!).searchParams.get("token");
    expect((await server.post("/user/password/reset", { token, password: b64("Fresh-pass-8!") })).status).toBe(200);
  });
});
