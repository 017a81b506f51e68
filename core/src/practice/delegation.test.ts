import { fc, test } from "@fast-check/vitest";
import { Cause, Exit, Option } from "effect";
import { describe, expect, it } from "vitest";
import type { Caller, User } from "../accounts/model.ts";
import { makeTestWorld } from "../testing/memory.ts";
import { anAccount, callerIn } from "../testing/accounts.ts";
import { makeOnboardingWorld } from "../testing/onboarding-memory.ts";
import { acceptLinkRequest, addPatient, addStaff, listPatients, listStaff, removeStaff, updatePatient } from "./service.ts";

const setup = async () => {
  const world = makeTestWorld();
  const ob = makeOnboardingWorld(world);
  const make = (type: User["type"], name: string) => anAccount(world, type, name);
  const physicians = [await make("physician", "phy0"), await make("physician", "phy1")];
  const staff = [await make("physician_staff", "st0"), await make("physician_staff", "st1"), await make("physician_staff", "st2")];
  const as = (u: User): Caller => callerIn(world, u.id);
  const patients: string[] = [];
  for (const p of physicians) {
    const added = await ob.runAs(as(p), addPatient({ first_name: "Pat", last_name: `Of ${p.firstName}`, date_of_birth: "2025-12-01", gender: "female" }));
    patients.push(added.identifier);
  }
  return { world, ob, physicians, staff, as, patients };
};

type Command =
  | { kind: "add"; staff: number; physician: number }
  | { kind: "remove"; staff: number; physician: number }
  | { kind: "access"; staff: number; physician: number; op: "listPatients" | "addPatient" | "updatePatient" | "listStaff" };

const arbCommand: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), staff: fc.nat(2), physician: fc.nat(1) }),
  fc.record({ kind: fc.constant("remove" as const), staff: fc.nat(2), physician: fc.nat(1) }),
  fc.record({
    kind: fc.constant("access" as const),
    staff: fc.nat(2),
    physician: fc.nat(1),
    op: fc.constantFrom("listPatients" as const, "addPatient" as const, "updatePatient" as const, "listStaff" as const),
  }),
);

describe("delegation", () => {
  test.prop([fc.array(arbCommand, { minLength: 1, maxLength: 25 })], { numRuns: 25 })(
    "a staff member never reads or changes data of a physician it has no live delegation for, whatever the adds and removes",
    async (commands) => {
      const { ob, physicians, staff, as, patients } = await setup();
      const live = new Set<string>();
      const key = (s: number, p: number) => `${s}:${p}`;
      const patientNames = () => [...ob.babies.values()].map((b) => `${b.id}:${b.physicianId}:${b.lastName}`).sort();
      for (const command of commands) {
        const physician = physicians[command.physician]!;
        const member = staff[command.staff]!;
        if (command.kind === "add") {
          // The physician adds; adding someone already on the staff is refused.
          const exit = await ob.exitAs(as(physician), addStaff({ email: member.email, type: "nurse" }));
          expect(Exit.isSuccess(exit)).toBe(!live.has(key(command.staff, command.physician)));
          if (Exit.isSuccess(exit)) {
            // An existing staff account acts for the practice once it accepts the offer (ADR 56).
            const offer = [...ob.delegations.values()].find((d) => d.physicianId === physician.id && d.staffId === member.id && d.endedAt === null)!;
            await ob.runAs(as(member), acceptLinkRequest({ identifier: offer.id, kind: "staff" }));
          }
          live.add(key(command.staff, command.physician));
        } else if (command.kind === "remove") {
          const exit = await ob.exitAs(as(physician), removeStaff({ staff_identifier: member.id }));
          expect(Exit.isSuccess(exit)).toBe(live.has(key(command.staff, command.physician)));
          live.delete(key(command.staff, command.physician));
        } else {
          const allowed = live.has(key(command.staff, command.physician));
          const before = patientNames();
          const body = { physician_identifier: physician.id };
          const effect =
            command.op === "listPatients"
              ? listPatients(1, body)
              : command.op === "listStaff"
                ? listStaff(1, body, ["nurse", "office_admin"])
                : command.op === "addPatient"
                  ? addPatient({ ...body, first_name: "New", last_name: "Patient", date_of_birth: "2026-01-01", gender: "female" })
                  : updatePatient({ ...body, identifier: patients[command.physician]!, first_name: "Changed", last_name: "ByStaff", date_of_birth: "2025-12-01", gender: "female" });
          const exit = await ob.exitAs(as(member), effect as never);
          if (allowed) {
            expect(Exit.isSuccess(exit)).toBe(true);
          } else {
            expect(Exit.isFailure(exit)).toBe(true);
            if (Exit.isFailure(exit)) expect(Option.getOrThrow(Cause.failureOption(exit.cause))).toMatchObject({ _tag: "NotFound" });
            // Nothing of anyone changed.
            expect(patientNames()).toEqual(before);
          }
        }
      }
      // A staff member only ever sees the patients of the physician it names, and only with a delegation.
      for (const [s, member] of staff.entries()) {
        for (const [p, physician] of physicians.entries()) {
          const exit = await ob.exitAs(as(member), listPatients(1, { physician_identifier: physician.id }));
          expect(Exit.isSuccess(exit)).toBe(live.has(key(s, p)));
          if (Exit.isSuccess(exit)) for (const row of exit.value.data) expect(row.physician_identifier).toBe(physician.id);
        }
      }
    },
    120_000,
  );

  it("a staff member cannot reach another physician's patient by naming its own physician", async () => {
    const { ob, physicians, staff, as, patients } = await setup();
    await ob.runAs(as(physicians[0]!), addStaff({ email: staff[0]!.email }));
    const offer = [...ob.delegations.values()].find((d) => d.staffId === staff[0]!.id)!;
    await ob.runAs(as(staff[0]!), acceptLinkRequest({ identifier: offer.id, kind: "staff" }));
    const exit = await ob.exitAs(
      as(staff[0]!),
      updatePatient({ physician_identifier: physicians[0]!.id, identifier: patients[1]!, first_name: "X", last_name: "Y", date_of_birth: "2025-12-01", gender: "female" }),
    );
    expect(Exit.isFailure(exit) && Option.getOrThrow(Cause.failureOption(exit.cause))).toMatchObject({ _tag: "NotFound" });
  });
});
