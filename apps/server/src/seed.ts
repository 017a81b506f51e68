import { Effect, Option } from "effect";
import { Accounts, type UserType } from "@crown/core";
import type { Services } from "./compose.ts";
import { seedDemoPractice } from "./seed-practice.ts";

export interface DemoAccount {
  readonly role: string;
  readonly email: string;
  readonly password: string;
}

/** Demo password: meets the spec's rule, and is printed at start so a newcomer can sign in. */
export const DEMO_PASSWORD = "Crown-demo-2026!";

const DEMO_USERS: ReadonlyArray<{ role: UserType; email: string; firstName: string; lastName: string; label: string }> = [
  { role: "parent", email: "parent@demo.crown", firstName: "Maya", lastName: "Parent", label: "parent" },
  { role: "physician", email: "physician@demo.crown", firstName: "Daniel", lastName: "Okafor", label: "physician" },
  { role: "physician_staff", email: "nurse@demo.crown", firstName: "Nora", lastName: "Nurse", label: "nurse (staff)" },
  { role: "reviewer", email: "reviewer@demo.crown", firstName: "Rita", lastName: "Reviewer", label: "reviewer" },
  { role: "admin", email: "admin@demo.crown", firstName: "Adam", lastName: "Admin", label: "admin" },
];

/** Creates the demo accounts once; running it again changes nothing. */
export const seedDemo = async (services: Services): Promise<DemoAccount[]> => {
  for (const demo of DEMO_USERS) {
    await services.run(
      Effect.gen(function* () {
        const existing = yield* Accounts.findUserByEmail(demo.email);
        if (Option.isSome(existing)) return;
        yield* Accounts.createVerifiedUser({ email: demo.email, password: DEMO_PASSWORD, type: demo.role, firstName: demo.firstName, lastName: demo.lastName, phone: "5550100100" });
      }),
    );
  }
  await services.run(seedDemoPractice({ parent: "parent@demo.crown", physician: "physician@demo.crown", nurse: "nurse@demo.crown" }));
  return DEMO_USERS.map((d) => ({ role: d.label, email: d.email, password: DEMO_PASSWORD }));
};
