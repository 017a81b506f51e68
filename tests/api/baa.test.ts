import { Delegations } from "@crown/core";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds, operatorAccount, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

/**
 * Issue 22 item 1: a physician who has not signed the Business Associate Agreement is refused every
 * practice call (403, status BaaRequired) until the agreement is signed; own-account calls (profile,
 * onboarding flags, reminders, signing itself) stay open. Staff of such a physician are refused too.
 */

describe.each(await databaseKinds())("the BAA is enforced by the server on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const account = (type: "physician" | "physician_staff") => operatorAccount(server, type, { firstName: "Bea", lastName: "Agree" });

  const practiceCalls = (token: string, physicianId?: string) => {
    const forPhysician = physicianId ? { physician_identifier: physicianId } : {};
    return [
      server.post("/patient/list", forPhysician, token),
      server.post("/patient/add", { ...forPhysician, first_name: "Ivy", last_name: "Stone", date_of_birth: "2026-08-01", gender: "female" }, token),
      server.post("/physician/add-user", { ...forPhysician, email: uniqueEmail("nurse"), type: "nurse" }, token),
      server.post("/physician/staff/list", forPhysician, token),
      server.post("/report/results", { ...forPhysician, type: "all" }, token),
      server.post("/report/prepare", { baby_identifier: "01HZZZZZZZZZZZZZZZZZZZZZZZ", analysis_type: "head_ci_cvai_analysis" }, token),
      server.post("/kiosk/devices/list", {}, token),
    ];
  };

  test("an unsigned physician gets 403 BaaRequired on practice calls, and is let in once signed", async () => {
    const doctor = await account("physician");
    for (const answer of await Promise.all(practiceCalls(doctor.token))) {
      expect(answer.status, JSON.stringify(answer.json)).toBe(403);
      expect(answer.json).toEqual({ message: "Please sign the Business Associate Agreement before using Crown.", status: "BaaRequired" });
    }
    // The physician's own account and the way to the agreement stay open.
    for (const path of ["/user/profile", "/user/onboarding", "/user/reminders", "/user/notifications-count"]) {
      expect((await server.get(path, doctor.token)).status, path).toBe(200);
    }
    const signed = await server.post("/user/sign-baa", { name: "Bea Agree", covered_entity: "Agree Pediatrics" }, doctor.token);
    expect(signed.status).toBe(200);

    const list = await server.post("/patient/list", {}, doctor.token);
    expect(list.status).toBe(200);
    const invited = await server.post("/physician/add-user", { email: uniqueEmail("nurse"), type: "nurse" }, doctor.token);
    expect(invited.status).toBe(201);
  });

  test("staff of a physician who has not signed are refused that practice's data", async () => {
    const doctor = await account("physician");
    const nurse = await account("physician_staff");
    await server.services.run(
      Effect.flatMap(Delegations, (d) =>
        d.insert({ id: `01D${Date.now().toString(36).toUpperCase()}`.padEnd(26, "0"), physicianId: doctor.id, staffId: nurse.id, staffType: "nurse", createdBy: doctor.id, createdAt: new Date(), acceptedAt: new Date(), endedAt: null, endedBy: null }),
      ),
    );
    const refused = await server.post("/patient/list", { physician_identifier: doctor.id }, nurse.token);
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ message: "Your physician has not signed the Business Associate Agreement yet.", status: "BaaRequired" });

    await server.post("/user/sign-baa", { name: "Bea Agree", covered_entity: "Agree Pediatrics" }, doctor.token);
    expect((await server.post("/patient/list", { physician_identifier: doctor.id }, nurse.token)).status).toBe(200);
  });
});
