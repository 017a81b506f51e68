import { Effect } from "effect";
import { CompiledQuery, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUNT_CAP } from "./paging.ts";
import { makeUsers } from "./repositories.ts";
import { makeBabies } from "./repositories/onboarding.ts";
import { makeReports } from "./repositories/reports.ts";
import type { Database } from "./schema.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "./testing.ts";
import { type ScaleData, seedScale } from "./testing-scale.ts";

/**
 * Every list query's plan on PostgreSQL with clinic-scale data (issue 19, ADR 0072): physicians with
 * 100k, 10k and 1k published reports. For a physician's page, with and without a search, on page 1
 * and a deep page, no list reads a big table whole (no Seq Scan on reports, report_reads, babies or
 * users), and each list is at most three statements (page, capped count, and once a minute an estimate).
 */

const BIG_TABLES = /Seq Scan on (reports|report_reads|babies|users)$/;

interface PlanNode {
  readonly "Node Type": string;
  readonly "Relation Name"?: string;
  readonly Filter?: string;
  readonly Plans?: ReadonlyArray<PlanNode>;
}
const SIZES = [100_000, 10_000, 1_000];

describe.skipIf(!(await databaseKinds()).includes("postgres"))("list plans on PostgreSQL at 111k reports", () => {
  let t: TestDatabase;
  let data: ScaleData;
  let pool: pg.Pool;
  let logged: Kysely<Database>;
  const statements: CompiledQuery[] = [];

  beforeAll(async () => {
    t = await createTestDatabase("postgres");
    data = await seedScale(t.db, { sizes: SIZES });
    // The repositories run on a second handle that records every statement they send.
    pool = new pg.Pool({ connectionString: t.url, max: 3 });
    logged = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => void statements.push(event.query) });
  }, 300_000);
  afterAll(async () => {
    await logged?.destroy();
    await t?.drop();
  });

  /** Runs one list call; answers its result, its statements and their plans (EXPLAIN, on the same data). */
  const traced = async <A>(call: (db: Kysely<Database>) => Effect.Effect<A>) => {
    statements.length = 0;
    const result = await Effect.runPromise(call(logged));
    // The estimate's own EXPLAIN is a statement too (counted), but has no plan of its own to check.
    const sent = [...statements];
    const plans: PlanNode[] = [];
    const text: string[] = [];
    for (const q of sent) {
      if (/^explain/i.test(q.sql)) continue;
      const json = await t.db.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(CompiledQuery.raw(`explain (format json) ${q.sql}`, [...q.parameters]));
      plans.push(json.rows[0]!["QUERY PLAN"][0]!.Plan);
      const { rows } = await t.db.executeQuery<{ "QUERY PLAN": string }>(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]));
      text.push(rows.map((r) => r["QUERY PLAN"]).join("\n"));
    }
    return { result, statements: sent.length, plans, text, sql: sent.map((q) => q.sql) };
  };

  /**
   * The scans of big tables a plan makes that are not bounded: a Seq Scan is fine only straight under
   * a Limit and without a filter (the capped count's first COUNT_CAP + 1 rows, whatever the table's size).
   */
  const unboundedScans = (node: PlanNode, parent: PlanNode | null = null): string[] => [
    ...(node["Node Type"] === "Seq Scan" && BIG_TABLES.test(`Seq Scan on ${node["Relation Name"]}`) && !(parent?.["Node Type"] === "Limit" && node.Filter === undefined)
      ? [`Seq Scan on ${node["Relation Name"]}${node.Filter ? ` (${node.Filter})` : ""}`]
      : []),
    ...(node.Plans ?? []).flatMap((child) => unboundedScans(child, node)),
  ];

  const expectIndexed = (run: { statements: number; plans: PlanNode[]; text: string[] }) => {
    run.plans.forEach((plan, i) => expect(unboundedScans(plan), run.text[i]).toEqual([]));
    expect(run.statements).toBeLessThanOrEqual(3);
  };

  const cases = SIZES.flatMap((size, k) =>
    [null, "Harris"].flatMap((search) =>
      (["all", "new", "reviewed"] as const).map((filter) => ({ size, k, search, filter })),
    ),
  );

  it.each(cases)("a physician's results at $size reports, search $search, $filter: page 1 and a deep page use the indexes", async ({ k, search, filter }) => {
    const physician = data.physicians[k]!;
    const first = await traced((db) => makeReports(db).resultsForPhysician(physician.id, { search, filter }, { page: 1, perPage: 10 }));
    expectIndexed(first);
    const total = first.result.total;
    expect(total).toBeGreaterThan(0);
    // The parent's name comes with the row (joined).
    expect(first.result.data.every((row) => row.parent !== null)).toBe(true);
    const deepPage = Math.max(1, Math.floor(Math.min(total, COUNT_CAP * 50) / 10 / 2));
    const deep = await traced((db) => makeReports(db).resultsForPhysician(physician.id, { search, filter }, { page: deepPage, perPage: 10 }));
    expectIndexed(deep);
    expect(deep.result.data.length).toBe(Math.min(10, total - (deepPage - 1) * 10));
  });

  it("keyset behind ?page=: page 2 after page 1 starts at the remembered key and equals the OFFSET page", async () => {
    const physician = data.physicians[0]!;
    const reports = makeReports(logged);
    await Effect.runPromise(reports.resultsForPhysician(physician.id, { search: null, filter: "all" }, { page: 1, perPage: 10 }));
    const second = await traced((db) => makeReports(db).resultsForPhysician(physician.id, { search: null, filter: "all" }, { page: 2, perPage: 10 }));
    expect(second.text[0]).toMatch(/Index Only Scan using reports_physician_results_idx/);
    expect(second.sql[0]).not.toMatch(/\boffset\b/i);
    const { rows } = await t.db.executeQuery<{ id: string }>(
      CompiledQuery.raw("select id from reports where physician_id = $1 and version > 0 order by published_at desc, id desc limit 10 offset 10", [physician.id]),
    );
    expect(second.result.data.map((r) => r.report.id)).toEqual(rows.map((r) => r.id));
  });

  it("counts: exact up to the threshold, estimated beyond (within 20% at 100k and 10k)", async () => {
    for (const physician of data.physicians) {
      const { result } = await traced((db) => makeReports(db).resultsForPhysician(physician.id, { search: null, filter: "all" }, { page: 1, perPage: 10 }));
      if (physician.reports <= COUNT_CAP) expect(result.total).toBe(physician.reports);
      else {
        expect(result.total).toBeGreaterThan(COUNT_CAP);
        expect(Math.abs(result.total - physician.reports) / physician.reports).toBeLessThan(0.2);
      }
    }
  });

  it("a parent's results, a baby's uploads, the review queue and a page of previous results use the indexes", async () => {
    const babies = [data.parent.babyId];
    for (const search of [null, "Harris"]) expectIndexed(await traced((db) => makeReports(db).resultsForBabies(babies, { search }, { page: 1, perPage: 10 })));
    const uploads = await traced((db) => makeReports(db).uploadsForBaby(data.parent.babyId, { page: 1, perPage: 10 }));
    expectIndexed(uploads);
    expect(uploads.result.total).toBe(11);
    const queue = await traced((db) => makeReports(db).reviewQueue({ page: 1, perPage: 10 }));
    expectIndexed(queue);
    expect(queue.result.data.every((row) => row.baby !== null && row.report.analysis !== null)).toBe(true);
    const babyIds = queue.result.data.map((row) => row.report.babyId);
    expectIndexed(await traced((db) => makeReports(db).publishedForBabies(babyIds)));
  });

  it("the admin's user directory (with and without a search) and a physician's patients use the indexes", async () => {
    for (const search of [null, "Harris", data.physicians[1]!.email]) {
      for (const type of [null, "physician" as const]) {
        const page = await traced((db) => makeUsers(db).directory({ search, type, status: null }, { page: 1, perPage: 10 }));
        expectIndexed(page);
        if (search === data.physicians[1]!.email) expect(page.result.data.map((u) => u.id)).toEqual([data.physicians[1]!.id]);
      }
    }
    // The patient list without a search (its search over concat_ws has no index yet: ADR 0072, what remains).
    expectIndexed(await traced((db) => makeBabies(db).listByPhysician(data.physicians[0]!.id, null, { page: 1, perPage: 10 })));
  });
});
