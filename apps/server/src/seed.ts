import { Effect, Option } from "effect";
import { Accounts, type UserType } from "@crown/core";
import type { Services } from "./compose.ts";
import { type DemoCredential, generateDemoPassword, readDemoCredentials, writeDemoCredentials } from "./demo-accounts.ts";
import { seedDemoPractice } from "./seed-practice.ts";

export type DemoAccount = DemoCredential;

/** Why `seed:demo` refuses a real database: demo accounts would be known accounts in production. */
export const DEMO_REFUSED =
  "Demo accounts are created only on the embedded database (no DATABASE_URL). Create real accounts with `pnpm crown user:create`.";

const DEMO_USERS: ReadonlyArray<{ role: UserType; email: string; firstName: string; lastName: string }> = [
  { role: "parent", email: "parent@demo.crown", firstName: "Maya", lastName: "Parent" },
  { role: "physician", email: "physician@demo.crown", firstName: "Daniel", lastName: "Okafor" },
  { role: "physician_staff", email: "nurse@demo.crown", firstName: "Nora", lastName: "Nurse" },
  { role: "reviewer", email: "reviewer@demo.crown", firstName: "Rita", lastName: "Reviewer" },
  { role: "admin", email: "admin@demo.crown", firstName: "Adam", lastName: "Admin" },
];

/**
 * Creates the demo accounts once on the embedded database, each with a password generated for this
 * data directory and saved beside it (ADR 24); a later run reuses the saved passwords and creates
 * nothing twice. A demo account found without a saved password (a data directory seeded before,
 * with the once-published password) gets a new one. Refuses any other database.
 */
export const seedDemo = async (services: Services, dataDir: string): Promise<DemoAccount[]> => {
  if (services.database.kind !== "pglite") throw new Error(DEMO_REFUSED);
  const saved = new Map((await readDemoCredentials(dataDir)).map((c) => [c.email, c.password]));
  const accounts: DemoAccount[] = [];
  for (const demo of DEMO_USERS) {
    const known = saved.get(demo.email);
    const password = known ?? generateDemoPassword();
    await services.run(
      Effect.gen(function* () {
        const existing = yield* Accounts.findUserByEmail(demo.email);
        if (Option.isNone(existing)) {
          yield* Accounts.createVerifiedUser({ email: demo.email, password, type: demo.role, firstName: demo.firstName, lastName: demo.lastName, phone: "5550100100" });
        } else if (known === undefined) {
          yield* Accounts.setPasswordByOperator(existing.value.id, password, "demo password generated for this data directory");
        }
      }),
    );
    accounts.push({ role: demo.role, email: demo.email, password });
  }
  await writeDemoCredentials(dataDir, accounts);
  await services.run(seedDemoPractice({ parent: "parent@demo.crown", physician: "physician@demo.crown", nurse: "nurse@demo.crown" }));
  return accounts;
};
