import { Clock, Effect } from "effect";
import { unzipSync, strFromU8 } from "fflate";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eraseDueAccounts } from "@crown/core/family-data/index";
import { ERASURE_GRACE_DAYS } from "@crown/core/accounts/removal";
import { databaseKinds } from "@crown/db/testing";
import { makeS3Client } from "@crown/storage";
import { startS3rver } from "@crown/storage/s3rver";
import { b64, PASSWORD } from "./harness.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";
import { readEvents } from "./sse.ts";

/**
 * Issue 44: signed-in devices, a family's export archive and the erasure carried out, against the
 * real server (PostgreSQL when reachable), its job worker and an S3-protocol bucket (s3rver) that
 * the test lists itself.
 */

const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

const kind = (await databaseKinds()).includes("postgres") ? "postgres" : "pglite";
const BUCKET = "crown-family-data";

describe(`a family's own data on ${kind}`, () => {
  let s: ReportServer;
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let bucketKeys: () => Promise<string[]>;

  /** Signs in from a given browser and address (the test client's own calls send neither). */
  const signInFrom = async (email: string, userAgent: string, address: string) => {
    const response = await s.app.request("/api/v1/en/user/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": userAgent, "x-forwarded-for": address },
      body: JSON.stringify({ email, password: b64(PASSWORD), device_type: "web" }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { results: { token: string } }).results.token;
  };

  /** `GET /events` of the session `token`, read until its first `ready`. */
  const openStream = async (token: string) => {
    const response = await s.app.request("/api/v1/en/events", { headers: { authorization: `Bearer ${token}`, "x-forwarded-for": "10.7.7.7" } });
    expect(response.status).toBe(200);
    const reader = readEvents(response);
    await reader.take((e) => e.event === "ready");
    return reader;
  };

  /** A published report of `babyId` with two photos, uploaded by `token`. */
  const publishedReport = async (token: string, babyId: string, reviewerToken: string) => {
    const report: string = (await s.post("/report/prepare", { baby_identifier: babyId, analysis_type: "head_ci_cvai_analysis" }, token)).json.results.report_identifier;
    const up = await s.upload(token, report, [
      { name: "top.jpg", bytes: await headPhoto({ rx: 160, ry: 200 }) },
      { name: "top2.jpg", bytes: await headPhoto({ rx: 158, ry: 200 }) },
    ]);
    expect(up.status).toBe(200);
    expect((await s.post("/report/finalize", { report_identifier: report }, token)).status).toBe(200);
    await s.waitFor(token, report, ["analyzed"]);
    expect((await s.post(`/review/report/${report}/publish`, {}, reviewerToken)).status).toBe(200);
    return report;
  };

  /** Two families of one physician, each child with a published report: the one under test and another that must stay apart. */
  const twoFamilies = async (names: { parent: string; child: string; other: string; otherChild: string }) => {
    const reviewer = await s.user("reviewer", "Rita", "Reviewer");
    const physician = await s.user("physician", "Paul", "Practice");
    const parent = await s.user("parent", names.parent, "Family");
    const otherParent = await s.user("parent", names.other, "Other");
    const baby = await s.baby(parent.id, physician.id, names.child);
    const otherBaby = await s.baby(otherParent.id, physician.id, names.otherChild);
    const report = await publishedReport(parent.token, baby.id, reviewer.token);
    const otherReport = await publishedReport(otherParent.token, otherBaby.id, reviewer.token);
    return { reviewer, physician, parent, otherParent, baby, otherBaby, report, otherReport };
  };

  /** Every row of every table (public and pg-boss) whose text holds `needle`, as "table: row". */
  const rowsNaming = async (needle: string, except: ReadonlyArray<string> = []) => {
    const tables = (
      await sql<{ schema: string; name: string }>`select table_schema as schema, table_name as name from information_schema.tables
        where table_schema in ('public', 'pgboss') and table_type = 'BASE TABLE'`.execute(s.db)
    ).rows;
    const found: string[] = [];
    for (const t of tables) {
      const full = `${t.schema}.${t.name}`;
      if (except.includes(full)) continue;
      const hits = (await sql<{ row: string }>`select row_to_json(x)::text as row from ${sql.table(full)} x where position(${needle} in row_to_json(x)::text) > 0`.execute(s.db)).rows;
      found.push(...hits.map((h) => `${full}: ${h.row.replace(/"html": "[^"]*"/, "").slice(0, 600)}`));
    }
    return found;
  };

  beforeAll(async () => {
    s3 = await startS3rver();
    s = await startReportServer(kind, { env: { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: BUCKET } });
    const client = makeS3Client({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: BUCKET });
    bucketKeys = () =>
      new Promise<string[]>((resolve, reject) => {
        const keys: string[] = [];
        const stream = client.listObjectsV2(BUCKET, "", true);
        stream.on("data", (o: { name?: string }) => o.name && keys.push(o.name));
        stream.on("end", () => resolve(keys));
        stream.on("error", reject);
      });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await s3?.stop();
  });

  test("signed-in devices: every session in words, this one marked; ending one makes its next call 401; ending the others keeps this one", async () => {
    const parent = await s.user("parent", "Dana", "Devices");
    const laptop = await signInFrom(parent.email, CHROME_WINDOWS, "8.8.8.8");
    const phone = await signInFrom(parent.email, SAFARI_IPHONE, "10.9.8.7");
    const list = await s.get("/user/sessions", laptop);
    expect(list.status).toBe(200);
    const sessions = list.json.results as Array<Record<string, unknown>>;
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toMatchObject({ current: true, browser: "Chrome", browser_version: "126", os: "Windows", kind: "desktop", country: "US" });
    const iphone = sessions.find((x) => x.browser === "Safari")!;
    expect(iphone).toMatchObject({ current: false, os: "iOS", kind: "mobile", country: null });
    expect(typeof iphone.first_seen).toBe("string");
    expect(typeof iphone.last_seen).toBe("string");

    // Another account's session, or this one, cannot be ended here.
    const stranger = await s.user("parent", "Sam", "Stranger");
    expect((await s.post("/user/sessions/end", { identifier: iphone.identifier }, stranger.token)).status).toBe(404);
    expect((await s.post("/user/sessions/end", { identifier: sessions[0]!.identifier }, laptop)).status).toBe(404);
    expect((await s.get("/user/profile", phone)).status).toBe(200);

    // Each session listens on an event stream of its own, as the portal's live updates do.
    const [laptopTab, phoneTab, firstTab] = await Promise.all([openStream(laptop), openStream(phone), openStream(parent.token)]);

    const ended = await s.post("/user/sessions/end", { identifier: iphone.identifier }, laptop);
    expect(ended.status).toBe(200);
    expect(ended.json.message).toBe("The session on that device has ended.");
    expect((await s.get("/user/profile", phone)).status).toBe(401);
    // The ended session's stream is told and closed; the others stay open.
    await phoneTab.take((e) => e.event === "session_ended", 10_000);
    await phoneTab.waitEnd(10_000);
    expect(firstTab.ended).toBe(false);
    expect((await s.get("/user/sessions", laptop)).json.results).toHaveLength(2);

    const others = await s.post("/user/sessions/end-others", {}, laptop);
    expect(others.json.results).toEqual({ ended: 1 });
    expect((await s.get("/user/profile", parent.token)).status).toBe(401);
    await firstTab.take((e) => e.event === "session_ended", 10_000);
    await firstTab.waitEnd(10_000);
    expect((await s.get("/user/profile", laptop)).status).toBe(200);
    // This session's own stream was not ended with the others.
    expect(laptopTab.ended).toBe(false);
    expect(laptopTab.events.some((e) => e.event === "session_ended")).toBe(false);
    await laptopTab.close();
    const audit = await sql<{ action: string }>`select action from audit_events where actor_id = ${parent.id} and action like 'account.%session%' order by id`.execute(s.db);
    expect(audit.rows.map((r) => r.action)).toEqual(["account.session_ended", "account.other_sessions_ended"]);
    // Spanish words for the answers.
    const es = await s.app.request("/api/v1/es/user/sessions/end-others", { method: "POST", headers: { authorization: `Bearer ${laptop}`, "x-forwarded-for": "10.3.3.3" } });
    expect(((await es.json()) as { message: string }).message).toBe("Todas las demás sesiones terminaron.");
  });

  test("an export holds every item of the family (profile, children, reports with PDFs, photos, measurements, FHIR, notifications, chat, consents) and nothing of another family", async () => {
    const seeded = await twoFamilies({ parent: "Alma", child: "Quillon", other: "Boris", otherChild: "Ottoline" });
    const { physician, report: reportA, otherReport: reportB } = seeded;
    const [parentA, parentB, babyA, babyB] = [seeded.parent, seeded.otherParent, seeded.baby, seeded.otherBaby];
    expect((await s.post("/chat/conversation/messages", { text: "A question from family A" }, parentA.token)).status).toBeLessThan(300);
    expect((await s.post("/chat/conversation/messages", { text: "A question from family B" }, parentB.token)).status).toBeLessThan(300);

    // Only parents, and only with a session: the others are refused.
    expect((await s.post("/user/data-exports", {}, physician.token)).status).toBe(403);
    const asked = await s.post("/user/data-exports", {}, parentA.token);
    expect(asked.status).toBe(202);
    expect(asked.json.results).toMatchObject({ status: "preparing" });
    const again = await s.post("/user/data-exports", {}, parentA.token);
    expect([202]).toContain(again.status);
    expect(again.json.results.identifier).toBe(asked.json.results.identifier);

    // The worker prepares it; the progress is there to read, and the link arrives by e-mail.
    const until = Date.now() + 90_000;
    let listed: Record<string, any> = {};
    for (;;) {
      listed = (await s.get("/user/data-exports", parentA.token)).json.results[0];
      if (listed.status !== "preparing" || Date.now() > until) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(listed).toMatchObject({ status: "available" });
    expect(listed.items_total).toBeGreaterThan(10);
    expect(listed.items_done).toBe(listed.items_total);
    let mail;
    for (let waited = 0; !(mail = (await s.outbox()).find((m) => m.to.includes(parentA.email) && /ready to download/.test(m.subject))) && waited < 30_000; waited += 200) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(mail).toBeDefined();
    const link = new URL(/http:\/\/crown\.test\/my-data\/download\S*/.exec(mail!.text)![0]);
    const identifier = link.searchParams.get("export")!;
    const token = link.searchParams.get("token")!;
    expect(identifier).toBe(asked.json.results.identifier);

    // Another parent holding the link gets nothing.
    expect((await s.post("/user/data-exports/download", { identifier, token }, parentB.token)).status).toBe(409);
    const download = await s.post("/user/data-exports/download", { identifier, token }, parentA.token);
    expect(download.status).toBe(200);
    expect(download.response.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await download.response.arrayBuffer()));
    // Once only.
    expect((await s.post("/user/data-exports/download", { identifier, token }, parentA.token)).status).toBe(409);

    const names = Object.keys(files);
    const base = `children/${babyA.id}/reports/${reportA}`;
    const attachmentIds = (await sql<{ id: string; extension: string }>`select id, extension from attachments where report_id = ${reportA}`.execute(s.db)).rows;
    expect(attachmentIds.length).toBeGreaterThanOrEqual(2);
    for (const expected of [
      "README.txt",
      "profile.json",
      "consents.json",
      "notifications.json",
      "chat/conversations.json",
      `children/${babyA.id}/child.json`,
      `${base}/report.json`,
      `${base}/measurements.json`,
      `${base}/fhir-bundle.json`,
      `${base}/report-v1.pdf`,
      ...attachmentIds.map((a) => `${base}/files/${a.id}.${a.extension}`),
    ]) {
      expect(names, expected).toContain(expected);
    }
    const text = (name: string) => strFromU8(files[name]!);
    expect(JSON.parse(text("profile.json"))).toMatchObject({ id: parentA.id, email: parentA.email, first_name: "Alma" });
    expect(text("profile.json")).not.toContain("password_hash");
    expect(JSON.parse(text(`children/${babyA.id}/child.json`))).toMatchObject({ id: babyA.id, first_name: "Quillon" });
    expect(strFromU8(files[`${base}/report-v1.pdf`]!.subarray(0, 5))).toBe("%PDF-");
    expect(files[`${base}/files/${attachmentIds[0]!.id}.${attachmentIds[0]!.extension}`]![0]).toBe(0xff);
    const measurements = JSON.parse(text(`${base}/measurements.json`)) as Array<{ ci: number | null }>;
    expect(measurements.length).toBeGreaterThanOrEqual(2);
    expect(measurements.some((m) => typeof m.ci === "number")).toBe(true);
    const bundle = JSON.parse(text(`${base}/fhir-bundle.json`));
    expect(bundle).toMatchObject({ resourceType: "Bundle", type: "document" });
    expect(JSON.stringify(bundle)).toContain(reportA);
    expect(JSON.parse(text("notifications.json")).length).toBeGreaterThan(0);
    expect(text("chat/conversations.json")).toContain("A question from family A");
    expect(JSON.parse(text("consents.json"))).toHaveProperty("link_requests");

    // Nothing of family B anywhere in the archive.
    const everything = names.join("\n") + Object.values(files).map((f) => strFromU8(f, true)).join("\n");
    for (const foreign of [parentB.id, parentB.email, babyB.id, "Ottoline", reportB, "family B"]) expect(everything, foreign).not.toContain(foreign);
    const audited = await sql<{ action: string }>`select action from audit_events where subject_id = ${parentA.id} and action like 'data.%' order by id`.execute(s.db);
    expect(audited.rows.map((r) => r.action)).toEqual(["data.export_requested", "data.export_prepared", "data.export_downloaded", "data.export_download_refused"]);
  }, 240_000);

  test("an erasure past its grace period leaves no row naming the child and no object in the bucket; the audit log keeps the identifiers", async () => {
    const admin = await s.user("admin", "Ada", "Admin");
    const seeded = await twoFamilies({ parent: "Erin", child: "Zephyrine", other: "Kai", otherChild: "Wilhelmina" });
    const { physician, parent, baby, report, otherReport: keptReport } = seeded;
    const keeper = seeded.otherParent;
    const photo = new FormData();
    photo.set("profile_photo", new Blob([(await headPhoto({ rx: 40, ry: 50, width: 120, height: 160 })) as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }), "me.jpg");
    expect((await s.call("POST", "/user/profile", { token: parent.token, form: photo })).status).toBe(200);
    const chat = new FormData();
    chat.set("text", "Zephyrine's head looks better");
    chat.append("images", new Blob([(await headPhoto({ rx: 100, ry: 130 })) as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }), "zephyrine.jpg");
    expect((await s.call("POST", "/chat/conversation/messages", { token: parent.token, form: chat })).status).toBeLessThan(300);
    // The parent's own archive is in the bucket too until the erasure.
    expect((await s.post("/user/data-exports", {}, parent.token)).status).toBe(202);
    for (let i = 0; i < 400 && (await s.get("/user/data-exports", parent.token)).json.results[0].status === "preparing"; i++) await new Promise((r) => setTimeout(r, 200));
    await s.get(`/report/${report}`, physician.token);

    const named = async () => {
      const rows = await sql<{ blob_key: string; id: string }>`select a.blob_key, a.id from attachments a where a.report_id = ${report}`.execute(s.db);
      const pdfs = await sql<{ blob_key: string }>`select blob_key from report_versions where report_id = ${report}`.execute(s.db);
      const photoKey = await sql<{ photo_key: string }>`select photo_key from users where id = ${parent.id}`.execute(s.db);
      const chatFiles = await sql<{ blob_key: string }>`select c.blob_key from chat_attachments c join chat_conversations v on v.id = c.conversation_id where v.user_id = ${parent.id}`.execute(s.db);
      const archives = await sql<{ blob_key: string }>`select blob_key from data_exports where user_id = ${parent.id} and blob_key is not null`.execute(s.db);
      return [...rows.rows.map((r) => r.blob_key), ...pdfs.rows.map((r) => r.blob_key), photoKey.rows[0]!.photo_key, ...chatFiles.rows.map((r) => r.blob_key), ...archives.rows.map((r) => r.blob_key)];
    };
    const familyKeys = await named();
    expect(familyKeys.length).toBeGreaterThanOrEqual(6);
    const before = await bucketKeys();
    for (const key of familyKeys) expect(before, key).toContain(key);
    const erasedAttachments = (await sql<{ id: string }>`select id from attachments where report_id = ${report}`.execute(s.db)).rows.map((r) => r.id);
    const derived = before.filter((k) => k.startsWith("derived/") && erasedAttachments.some((id) => k.includes(id)));
    const keptKeys = before.filter((k) => !familyKeys.includes(k) && !k.startsWith("derived/"));

    const removal = await s.post("/user/remove-account", { password: b64(PASSWORD), reason: "We are done" }, parent.token);
    expect(removal.status).toBe(200);
    expect(removal.json.results).toMatchObject({ erasure: "scheduled", signed_out: true });
    // Every session ended with the request.
    expect((await s.get("/user/profile", parent.token)).status).toBe(401);
    const queue = await s.get("/admin/removal-requests", admin.token);
    expect(queue.json.results.data.find((r: any) => r.user?.identifier === parent.id)).toMatchObject({ erasure: "scheduled", held_at: null });

    const later = (days: number) => Date.now() + days * 86_400_000;
    const eraseAt = (ms: number) => s.services.run(Effect.withClock(eraseDueAccounts, fixedClock(ms)) as never) as Promise<number>;
    // Within the grace period nothing happens.
    expect(await eraseAt(later(ERASURE_GRACE_DAYS - 1))).toBe(0);
    expect((await sql<{ n: number }>`select count(*)::int as n from babies where id = ${baby.id}`.execute(s.db)).rows[0]!.n).toBe(1);
    expect(await eraseAt(later(ERASURE_GRACE_DAYS + 1))).toBe(1);

    // No row names the child (the audit log keeps its identifier, and nothing else about it).
    expect(await rowsNaming("Zephyrine")).toEqual([]);
    expect(await rowsNaming(baby.id, ["public.audit_events"])).toEqual([]);
    expect(await rowsNaming(parent.email)).toEqual([]);
    expect(await rowsNaming(parent.id, ["public.audit_events"])).toEqual([]);
    expect(await rowsNaming(report, ["public.audit_events"])).toEqual([]);
    // No object of the family in the bucket, served copies included; the other family's are all there.
    const after = await bucketKeys();
    for (const key of familyKeys) expect(after, key).not.toContain(key);
    // The served copies made from the family's photos went with them.
    expect(derived.length).toBeGreaterThan(0);
    expect(after.filter((k) => erasedAttachments.some((id) => k.includes(id)))).toEqual([]);
    for (const key of keptKeys) expect(after, key).toContain(key);
    // The audit log still holds the identifiers.
    const audit = await sql<{ action: string; subject_id: string; details: Record<string, unknown>; ip: string | null }>`
      select action, subject_id, details, ip from audit_events where subject_id in (${parent.id}, ${baby.id}, ${report}) or actor_id = ${parent.id} order by id`.execute(s.db);
    expect(audit.rows.some((r) => r.subject_id === baby.id || r.subject_id === report)).toBe(true);
    const erased = audit.rows.find((r) => r.action === "account.erased")!;
    expect(erased.subject_id).toBe(parent.id);
    expect(erased.details).toMatchObject({ babies: [baby.id], reports: [report] });
    for (const r of audit.rows.filter((r) => r.action !== "account.erased")) expect(r, r.action).toMatchObject({ details: { erased: true }, ip: null });
    // The log is still append-only for anyone else.
    await expect(sql`update audit_events set details = '{}'::jsonb where subject_id = ${parent.id}`.execute(s.db)).rejects.toThrow(/append-only/);
    // The other family is untouched.
    expect((await s.get(`/report/${keptReport}`, keeper.token)).status).toBe(200);
  }, 240_000);

  test("signing in again cancels the erasure; a legal hold stops it until lifted (audited)", async () => {
    const admin = await s.user("admin", "Ari", "Admin");
    const changed = await s.user("parent", "Cora", "Changed");
    const held = await s.user("parent", "Hugo", "Held");
    const heldBaby = await s.baby(held.id, null, "Holdena");
    for (const who of [changed, held]) expect((await s.post("/user/remove-account", { password: b64(PASSWORD) }, who.token)).status).toBe(200);
    await signInFrom(changed.email, CHROME_WINDOWS, "10.4.4.4");
    const list = async () => (await s.get("/admin/removal-requests", admin.token)).json.results.data as Array<any>;
    expect((await list()).some((r) => r.user?.identifier === changed.id)).toBe(false);
    for (let waited = 0; !(await s.outbox()).some((m) => m.to.includes(changed.email) && /will not be erased/.test(m.subject)) && waited < 20_000; waited += 200) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await s.outbox()).some((m) => m.to.includes(changed.email) && /will not be erased/.test(m.subject))).toBe(true);

    const request = (await list()).find((r) => r.user?.identifier === held.id);
    expect((await s.post("/admin/removal-requests/hold", { identifier: request.identifier, reason: "Subpoena 2026-114" }, held.token)).status).toBe(401);
    const hold = await s.post("/admin/removal-requests/hold", { identifier: request.identifier, reason: "Subpoena 2026-114" }, admin.token);
    expect(hold.status).toBe(200);
    expect((await list()).find((r) => r.user?.identifier === held.id)).toMatchObject({ erasure: "held", hold_reason: "Subpoena 2026-114" });
    const at = Date.now() + (ERASURE_GRACE_DAYS + 2) * 86_400_000;
    const run = () => s.services.run(Effect.withClock(eraseDueAccounts, fixedClock(at)) as never) as Promise<number>;
    await run();
    expect((await sql<{ n: number }>`select count(*)::int as n from users where id in (${held.id}, ${changed.id})`.execute(s.db)).rows[0]!.n).toBe(2);
    expect((await s.post("/admin/removal-requests/release", { identifier: request.identifier }, admin.token)).status).toBe(200);
    await run();
    expect((await sql<{ n: number }>`select count(*)::int as n from users where id = ${held.id}`.execute(s.db)).rows[0]!.n).toBe(0);
    expect(await rowsNaming("Holdena")).toEqual([]);
    expect((await sql<{ n: number }>`select count(*)::int as n from users where id = ${changed.id}`.execute(s.db)).rows[0]!.n).toBe(1);
    const actions = await sql<{ action: string }>`select action from audit_events where subject_id in (${held.id}, ${changed.id}) and action like 'account.removal%' or (subject_id = ${held.id} and action = 'account.erased') order by id`.execute(s.db);
    expect(actions.rows.map((r) => r.action)).toEqual(expect.arrayContaining(["account.removal_cancelled", "account.removal_held", "account.removal_released", "account.erased"]));
  }, 120_000);
});

/** A clock standing at `ms` (the erasure's "now"), for the injectable-clock runs above. */
const fixedClock = (ms: number): Clock.Clock => {
  const base = Clock.make();
  return { ...base, unsafeCurrentTimeMillis: () => ms, currentTimeMillis: Effect.succeed(ms), unsafeCurrentTimeNanos: () => BigInt(ms) * 1_000_000n, currentTimeNanos: Effect.succeed(BigInt(ms) * 1_000_000n) };
};
