// A report's time to "analyzed" without and with a shadow model (issue 41, item 5; ADR 0159).
//   pnpm tsx tests/bench/shadow-model.ts [--reports 4] [--photos 2]
// The real server app on PostgreSQL with the model in models/head-contour as the shipped model and
// its worker; the candidate is the same network under another version (the same cost per photo as
// a real candidate of this architecture). Each report's time is the server's own: analyzed_at minus
// submitted_at. Three rounds: no shadow; a shadow, each report alone (the shadow's job ends before the
// next report); a shadow, reports back to back (the next report is analysed while the previous one's
// shadow job runs, sharing the CPU). The shadow's own measurement time is the sum of its per-photo
// times for the report. Passes when the median time with a shadow exceeds the median without by no
// more than the shadow's own median measurement time per report.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { DEFAULT_MODEL_PATH } from "../../apps/server/src/paths.ts";
import { headPhoto, startReportServer } from "../api/report-fixtures.ts";

const { values } = parseArgs({ options: { reports: { type: "string" }, photos: { type: "string" } } });
const REPORTS = Number(values.reports ?? 4);
const PHOTOS = Number(values.photos ?? 2);
const MODEL = process.env.CROWN_MODEL ?? DEFAULT_MODEL_PATH;
if (!existsSync(MODEL)) {
  console.log(`no model at ${MODEL}: build it first (pnpm model:build)`);
  process.exit(0);
}

const s = await startReportServer("postgres", { model: "real" });
try {
  const admin = await s.user("admin", "Ada", "Admin");
  const parent = await s.user("parent", "Pia", "Parent");
  const physician = await s.user("physician", "Grace", "Hopper");
  const baby = await s.baby(parent.id, physician.id, "Noa", "2026-06-01");
  const photos = await Promise.all(Array.from({ length: PHOTOS }, (_, n) => headPhoto({ rx: 150 + 6 * n, ry: 205 })));

  const statusOf = async (id: string) => (await sql<{ status: string }>`select status from reports where id = ${id}`.execute(s.db)).rows[0]!.status;
  const until = async (f: () => Promise<boolean>) => {
    while (!(await f())) await new Promise((r) => setTimeout(r, 20));
  };
  /** One report: prepared, uploaded, finalized; answers its id once analysed, and the server's time to analysed. */
  const oneReport = async () => {
    const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier as string;
    await s.upload(parent.token, id, photos.map((bytes, n) => ({ name: `p${n}.jpg`, bytes })));
    await s.post("/report/finalize", { report_identifier: id }, parent.token);
    await until(async () => ["analyzed", "in_review"].includes(await statusOf(id)));
    const t = (await sql<{ ms: number }>`select extract(epoch from (analyzed_at - submitted_at)) * 1000 as ms from reports where id = ${id}`.execute(s.db)).rows[0]!;
    return { id, ms: Number(t.ms) };
  };
  const shadowOf = async (id: string) => {
    const r = await sql<{ n: number; ms: number; done_after: number }>`
      select count(*)::int as n, coalesce(sum(sh.ms), 0) as ms,
             extract(epoch from (max(sh.created_at) - r.analyzed_at)) * 1000 as done_after
      from shadow_measurements sh join reports r on r.id = sh.report_id where sh.report_id = ${id} group by r.analyzed_at`.execute(s.db);
    return r.rows[0] ? { n: r.rows[0].n, ms: Number(r.rows[0].ms), doneAfter: Number(r.rows[0].done_after) } : { n: 0, ms: 0, doneAfter: 0 };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const line = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(", ")})`;

  // A first report warms the model's session and the database's plans; not counted.
  await oneReport();
  await s.worker!.idle();

  const without: number[] = [];
  for (let i = 0; i < REPORTS; i++) {
    without.push((await oneReport()).ms);
    await s.worker!.idle();
  }

  const card = { ...JSON.parse(readFileSync(path.join(path.dirname(MODEL), "model.json"), "utf8")), version: "bench-shadow" };
  const form = new FormData();
  form.append("model", new Blob([readFileSync(MODEL)]), "head-contour.onnx");
  form.append("card", JSON.stringify(card));
  const installed = await s.call("POST", "/admin/model/shadow", { token: admin.token, form });
  if (installed.status !== 200) throw new Error(`install: ${JSON.stringify(installed.json)}`);
  // The shadow's session opens on its first job: a warm-up report, not counted.
  await oneReport();
  await s.worker!.idle();

  const alone: number[] = [];
  const aloneShadow: number[] = [];
  for (let i = 0; i < REPORTS; i++) {
    const r = await oneReport();
    await s.worker!.idle();
    const sh = await shadowOf(r.id);
    if (sh.n !== PHOTOS) throw new Error(`the shadow answered ${sh.n} of ${PHOTOS} photos`);
    alone.push(r.ms);
    aloneShadow.push(sh.ms);
  }

  const backToBack: number[] = [];
  const ids: string[] = [];
  for (let i = 0; i < REPORTS; i++) {
    const r = await oneReport();
    backToBack.push(r.ms);
    ids.push(r.id);
  }
  await s.worker!.idle();
  const b2bShadow: number[] = [];
  const after: number[] = [];
  for (const id of ids) {
    const sh = await shadowOf(id);
    if (sh.n !== PHOTOS) throw new Error(`the shadow answered ${sh.n} of ${PHOTOS} photos`);
    b2bShadow.push(sh.ms);
    after.push(sh.doneAfter);
  }

  const shadowMs = median([...aloneShadow, ...b2bShadow]);
  console.log(`shadow model bench: ${REPORTS} reports of ${PHOTOS} photos per round, ${MODEL}`);
  console.log(`time to analyzed, no shadow:                  ${line(without)}`);
  console.log(`time to analyzed, shadow, each report alone:  ${line(alone)}`);
  console.log(`time to analyzed, shadow, back to back:       ${line(backToBack)}`);
  console.log(`the shadow's own measurement time per report: ${line([...aloneShadow, ...b2bShadow])}`);
  console.log(`the shadow's answers stored after "analyzed": ${line(after)} (back to back)`);
  for (const [name, xs] of [["alone", alone], ["back to back", backToBack]] as const) {
    const grew = median(xs) - median(without);
    console.log(`${name}: grew by ${grew.toFixed(0)} ms, the shadow's own time ${shadowMs.toFixed(0)} ms: ${grew <= shadowMs ? "PASS" : "FAIL"}`);
  }
} finally {
  await s.close();
}
