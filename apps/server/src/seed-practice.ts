import { Effect, Option } from "effect";
import { Accounts, Babies, CalendarDays, Delegations, Random, type User } from "@crown/core";

/**
 * Demo practice data over the demo accounts: the parent's baby (a patient of the demo physician)
 * and the nurse's delegation from that physician. Running it again changes nothing.
 */
export const seedDemoPractice = (emails: { parent: string; physician: string; nurse: string }) =>
  Effect.gen(function* () {
    const find = (email: string) => Effect.map(Accounts.findUserByEmail(email), Option.getOrNull);
    const parent: User | null = yield* find(emails.parent);
    const physician: User | null = yield* find(emails.physician);
    const nurse: User | null = yield* find(emails.nurse);
    if (!parent || !physician || !nurse) return;
    const random = yield* Random;
    const now = new Date(yield* Effect.clockWith((c) => c.currentTimeMillis));
    const babies = yield* Babies;
    if ((yield* babies.listByParent(parent.id)).length === 0) {
      const birth = CalendarDays.formatDay(CalendarDays.addMonths(CalendarDays.dayOf(now), -3));
      yield* babies.insert({
        id: random.identifier(),
        parentId: parent.id,
        physicianId: physician.id,
        firstName: "Leo",
        middleName: null,
        lastName: parent.lastName,
        dateOfBirth: birth,
        relation: "mother",
        gender: "male",
        ethnicity: null,
        nicuTime: 0,
        previousCondition: null,
        referralCode: null,
        caregiverEmail: parent.email,
        caregiverPhone: parent.phone,
        createdBy: parent.id,
        createdAt: now,
        updatedAt: now,
      });
    }
    const delegations = yield* Delegations;
    if (Option.isNone(yield* delegations.findActive(physician.id, nurse.id))) {
      yield* delegations.insert({
        id: random.identifier(),
        physicianId: physician.id,
        staffId: nurse.id,
        staffType: "nurse",
        createdBy: physician.id,
        acceptedAt: now,
        createdAt: now,
        endedAt: null,
        endedBy: null,
      });
    }
  });
