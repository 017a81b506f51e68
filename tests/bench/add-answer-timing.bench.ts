// Whether an add's timing tells that an address has an account (issue 15, ADR 56): the median and spread
// of /physician/add-user and /patient/add for a new address, an existing parent, an existing staff
// account and a physician, through the real app on PGlite.
//   pnpm tsx tests/bench/add-answer-timing.bench.ts [--runs 15]
import { parseArgs } from "node:util";
import { operatorAccount, signUpVerified, startTestServer, uniqueEmail } from "../api/harness.ts";

const { values } = parseArgs({ options: { runs: { type: "string" } } });
const runs = Number(values.runs ?? 15);
const server = await startTestServer("pglite");
const doctor = await operatorAccount(server, "physician", { firstName: "Bench", lastName: "Timing" });
await server.post("/user/sign-baa", { name: "Bench Timing", covered_entity: "Bench Pediatrics" }, doctor.token);
// The bench adds more than a practice's day of invitations: the counters are emptied before each add.
const clear = () => server.services.database.db.deleteFrom("rate_limit_buckets").execute();

const kinds: Record<string, () => Promise<string>> = {
  "new address": async () => uniqueEmail("fresh"),
  "existing parent": async () => (await signUpVerified(server, "parent")).email,
  "existing staff": async () => (await operatorAccount(server, "physician_staff", { firstName: "S", lastName: "T" })).email,
  physician: async () => (await operatorAccount(server, "physician", { firstName: "P", lastName: "Q" })).email,
};
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)]!.toFixed(1)} ms, p10 ${s[Math.floor(s.length * 0.1)]!.toFixed(1)}, p90 ${s[Math.floor(s.length * 0.9)]!.toFixed(1)}`;
};
// Kinds take turns (and a first round is not counted), so warming up and the machine's other load fall on all alike.
for (const [route, body] of [
  ["/physician/add-user", (email: string) => ({ email, type: "nurse" })],
  ["/patient/add", (email: string) => ({ first_name: "Ivy", last_name: "Stone", date_of_birth: "2026-09-01", gender: "female", email })],
] as const) {
  const times = new Map(Object.keys(kinds).map((k) => [k, [] as number[]]));
  for (let i = 0; i <= runs; i++) {
    for (const [kind, address] of Object.entries(kinds)) {
      const email = await address();
      await clear();
      const start = performance.now();
      const answer = await server.post(route, body(email), doctor.token);
      if (i > 0) times.get(kind)!.push(performance.now() - start);
      if (answer.status !== 201) throw new Error(`${route} ${kind}: ${answer.status} ${JSON.stringify(answer.json)}`);
    }
  }
  for (const [kind, ms] of times) console.log(`${route.padEnd(20)} ${kind.padEnd(16)} ${stats(ms)}`);
}
await server.close();
