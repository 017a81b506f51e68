import { Effect } from "effect";
import { CompiledQuery, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUNT_CAP, SEARCH_COUNT_CAP } from "./paging.ts";
import { makeUsers } from "./repositories/accounts.ts";
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
  readonly "Plan Rows"?: number;
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
    const planned: string[] = [];
    for (const q of sent) {
      if (/^explain/i.test(q.sql)) continue;
      planned.push(q.sql);
      const json = await t.db.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(CompiledQuery.raw(`explain (format json) ${q.sql}`, [...q.parameters]));
      plans.push(json.rows[0]!["QUERY PLAN"][0]!.Plan);
      const { rows } = await t.db.executeQuery<{ "QUERY PLAN": string }>(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]));
      text.push(rows.map((r) => r["QUERY PLAN"]).join("\n"));
    }
    /** The plan of the statement that reads the page (the one with an ORDER BY). */
    const pagePlan = () => text[planned.findIndex((q) => /order by/i.test(q))] ?? "";
    return { result, statements: sent.length, plans, text, sql: sent.map((q) => q.sql), pagePlan };
  };

  /**
   * The scans of big tables a plan makes that are not bounded: a Seq Scan is fine only straight under
   * a Limit (the capped count's first COUNT_CAP + 1 rows, whatever the table's size), without a filter or
   * with one the planner expects to match at least twice the limit (a physician who owns most rows: the
   * scan stops within half the table, before a walk of an index would).
   */
  const boundedByLimit = (node: PlanNode, parent: PlanNode | null) =>
    parent?.["Node Type"] === "Limit" && (node.Filter === undefined || (node["Plan Rows"] ?? 0) >= 2 * (parent["Plan Rows"] ?? Number.POSITIVE_INFINITY));
  const unboundedScans = (node: PlanNode, parent: PlanNode | null = null): string[] => [
    ...(node["Node Type"] === "Seq Scan" && BIG_TABLES.test(`Seq Scan on ${node["Relation Name"]}`) && !boundedByLimit(node, parent)
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
    // Halfway into what is known to exist: a total past the exact cap is the planner's estimate (a search's
    // can be well above the real matches), so a searched list goes no deeper than its exact count.
    const known = search ? Math.min(total, SEARCH_COUNT_CAP) : Math.min(total, COUNT_CAP * 50);
    const deepPage = Math.max(1, Math.floor(known / 10 / 2));
    const deep = await traced((db) => makeReports(db).resultsForPhysician(physician.id, { search, filter }, { page: deepPage, perPage: 10 }));
    expectIndexed(deep);
    expect(deep.result.data.length).toBe(Math.min(10, total - (deepPage - 1) * 10));
  });

  it("a search for a common name reads the page from the results index alone, whatever sample ANALYZE drew (ADR 0105)", async () => {
    // Before, the plan depended on ANALYZE's random sample of names: when it held no "Harris", the planner
    // expected 11 matches in all and bitmap-scanned every physician's 2,220 of them on their own pages
    // (12 ms) instead of walking this physician's index (0.4 ms), in about one ANALYZE of six.
    for (let sample = 0; sample < 6; sample++) {
      await t.db.executeQuery(CompiledQuery.raw("analyze reports"));
      for (const physician of data.physicians) {
        const run = await traced((db) => makeReports(db).resultsForPhysician(physician.id, { search: data.searchTerm, filter: "all" }, { page: 1, perPage: 10 }));
        const ids = run.text.find((plan) => /Limit/.test(plan) && /baby_name/.test(plan)) ?? run.text.join("\n---\n");
        expect(ids, `ANALYZE ${sample + 1}, ${physician.reports} reports`).toMatch(/Index Only Scan using reports_physician_results_idx/);
        expect(ids).not.toMatch(/reports_baby_name_trgm_idx/);
      }
    }
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

  it("a searched list counts exactly up to its lower cap, estimates beyond, and every page stays reachable (ADR 0096)", async () => {
    for (const physician of data.physicians) {
      const { rows } = await t.db.executeQuery<{ n: string }>(
        CompiledQuery.raw("select count(*) as n from reports where physician_id = $1 and version > 0 and baby_name ilike $2", [physician.id, `%${data.searchTerm}%`]),
      );
      const matches = Number(rows[0]!.n);
      const pageOf = (page: number) => Effect.runPromise(makeReports(t.db).resultsForPhysician(physician.id, { search: data.searchTerm, filter: "all" }, { page, perPage: 10 }));
      const first = await pageOf(1);
      if (matches <= SEARCH_COUNT_CAP) expect(first.total).toBe(matches);
      else expect(first.total).toBeGreaterThan(SEARCH_COUNT_CAP);
      // However far the estimate is off, a full page with more after it promises the next page...
      const lastPage = Math.ceil(matches / 10);
      if (lastPage > 2) expect((await pageOf(lastPage - 1)).total).toBeGreaterThan((lastPage - 1) * 10);
      // ...and the last page knows the exact total.
      const last = await pageOf(lastPage);
      expect(last.data.length).toBe(matches - (lastPage - 1) * 10);
      expect(last.total).toBe(matches);
    }
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
    expectIndexed(await traced((db) => makeBabies(db).listByPhysician(data.physicians[0]!.id, null, { page: 1, perPage: 10 })));
  });

  it("a physician's patients searched by name or e-mail: trigram indexes, the same babies as concat_ws found (ADR 0090)", async () => {
    const physician = data.physicians[0]!;
    for (const search of ["Harris", "olivia smi", "ia Sm"]) {
      const page = await traced((db) => makeBabies(db).listByPhysician(physician.id, search, { page: 1, perPage: 10 }));
      expectIndexed(page);
      expect(page.text.join("\n")).toMatch(/babies_(full_)?name_trgm_idx/);
      // The indexable expressions find what the concat_ws search found.
      const { rows } = await t.db.executeQuery<{ id: string; n: string }>(
        CompiledQuery.raw(
          `select id, count(*) over () as n from babies where physician_id = $1 and (concat_ws(' ', first_name, middle_name, last_name) ilike $2 or concat_ws(' ', first_name, last_name) ilike $2 or caregiver_email ilike $2)
           order by created_at desc, id desc limit 10`,
          [physician.id, `%${search}%`],
        ),
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(page.result.data.map((b) => b.id)).toEqual(rows.map((r) => r.id));
      const matches = Number(rows[0]!.n);
      if (matches <= COUNT_CAP) expect(page.result.total).toBe(matches);
      else expect(page.result.total).toBeGreaterThan(COUNT_CAP);
    }
  });

  it("pending approvals: one page of the waiting accounts from the index, oldest first (ADR 0090)", async () => {
    const page = await traced((db) => makeUsers(db).listByStatus("WaitingApproval", { page: 1, perPage: 10 }));
    expectIndexed(page);
    expect(page.statements).toBeLessThanOrEqual(2);
  });

  // Last: it adds 20,000 waiting reports, so that sorting the queue would cost what walking an index saves.
  it("the review queue walks an index in its order, however long the queue (ADR 0090)", async () => {
    await t.db.executeQuery(
      CompiledQuery.raw(`
        insert into reports (id, baby_id, baby_name, uploader_id, physician_id, analysis_type, status, round, submitted_at, analyzed_at, analysis, version, created_at, updated_at)
        select 'queue-extra-' || i, baby_id, baby_name, uploader_id, physician_id, analysis_type, status, round, submitted_at - i * interval '1 second', analyzed_at, analysis, version, created_at, updated_at
        from reports w cross join generate_series(1, 20000) i where w.id = 'scale-waiting-0-1'`),
    );
    await t.db.executeQuery(CompiledQuery.raw("analyze reports"));
    for (const pageNumber of [1, 500]) {
      const queue = await traced((db) => makeReports(db).reviewQueue({ page: pageNumber, perPage: 10 }));
      expectIndexed(queue);
      expect(queue.pagePlan()).toMatch(/Index (Only )?Scan using reports_waiting_idx/);
      const { rows } = await t.db.executeQuery<{ id: string }>(
        CompiledQuery.raw("select id from reports where status in (select status from reports where id = 'scale-waiting-0-1') order by submitted_at, id limit 10 offset $1", [(pageNumber - 1) * 10]),
      );
      expect(queue.result.data.map((row) => row.report.id)).toEqual(rows.map((r) => r.id));
    }
  });
});
