import { fc, test } from "@fast-check/vitest";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { acceptLinkRequests, databaseKinds, operatorAccount, startTestServer, type TestServer } from "./harness.ts";

/**
 * The delegation property through the real app and database: whatever the sequence of adds and
 * removes, a staff member reads or changes a physician's patients and staff only while it holds a
 * live delegation from that physician, and is answered 404 otherwise, with nothing changed.
 */

type Command = { kind: "add" | "remove" | "access"; staff: number; physician: number; op?: "list" | "add" | "update" | "staff" };

const arbCommand: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constantFrom("add" as const, "remove" as const), staff: fc.nat(1), physician: fc.nat(1) }),
  fc.record({ kind: fc.constant("access" as const), staff: fc.nat(1), physician: fc.nat(1), op: fc.constantFrom("list" as const, "add" as const, "update" as const, "staff" as const) }),
);

describe.each(await databaseKinds())("delegation property through the API on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const account = async (type: "physician" | "physician_staff") => {
    const made = await operatorAccount(server, type, { firstName: "Prop", lastName: type });
    if (type === "physician") await server.post("/user/sign-baa", { name: "Prop Physician", covered_entity: "Prop Pediatrics" }, made.token);
    return made;
  };

  test.prop([fc.array(arbCommand, { minLength: 1, maxLength: 12 })], { numRuns: 6 })(
    "a staff member never reads or changes data of a physician it has no live delegation for",
    async (commands) => {
      const physicians = [await account("physician"), await account("physician")];
      // Each staff member keeps a delegation from a third physician, so removals never sign it out.
      const anchor = await account("physician");
      const staff = [await account("physician_staff"), await account("physician_staff")];
      for (const s of staff) {
        expect((await server.post("/physician/add-user", { email: s.email }, anchor.token)).status).toBe(201);
        expect(await acceptLinkRequests(server, s.token)).toBe(1);
      }
      const patients: string[] = [];
      for (const p of physicians) {
        const added = await server.post("/patient/add", { first_name: "Pat", last_name: "Prop", date_of_birth: "2026-01-01", gender: "female" }, p.token);
        patients.push(added.json.results.identifier);
      }
      const snapshot = async () =>
        Promise.all(physicians.map(async (p) => (await server.post("/patient/list", { per_page: 100 }, p.token)).json.results.data.map((x: { identifier: string; first_name: string }) => `${x.identifier}:${x.first_name}`)));

      const live = new Set<string>();
      for (const c of commands) {
        const key = `${c.staff}:${c.physician}`;
        const p = physicians[c.physician]!;
        const s = staff[c.staff]!;
        if (c.kind === "add") {
          const answer = await server.post("/physician/add-user", { email: s.email }, p.token);
          expect(answer.status).toBe(live.has(key) ? 422 : 201);
          // An existing staff account acts for the practice once it accepts the offer (ADR 56).
          if (answer.status === 201) expect(await acceptLinkRequests(server, s.token)).toBe(1);
          live.add(key);
        } else if (c.kind === "remove") {
          const answer = await server.post("/physician/staff/remove", { staff_identifier: s.identifier }, p.token);
          expect(answer.status).toBe(live.has(key) ? 200 : 404);
          live.delete(key);
        } else {
          const before = await snapshot();
          const body = { physician_identifier: p.identifier };
          const answer =
            c.op === "list"
              ? await server.post("/patient/list", body, s.token)
              : c.op === "staff"
                ? await server.post("/physician/staff/list", body, s.token)
                : c.op === "add"
                  ? await server.post("/patient/add", { ...body, first_name: "Added", last_name: "ByStaff", date_of_birth: "2026-02-01", gender: "female" }, s.token)
                  : await server.post("/patient/update", { ...body, identifier: patients[c.physician], first_name: "Changed", last_name: "Prop", date_of_birth: "2026-01-01", gender: "female" }, s.token);
          if (live.has(key)) {
            expect([200, 201]).toContain(answer.status);
            if (c.op === "list") for (const row of answer.json.results.data) expect(row.physician_identifier).toBe(p.identifier);
          } else {
            expect(answer.status).toBe(404);
            expect(await snapshot()).toEqual(before);
          }
        }
      }
    },
    240_000,
  );
});
