import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Effect } from "effect";
import { type Kysely, type KyselyPlugin, sql } from "kysely";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { Accounts, Babies, Delegations, type UserType } from "@crown/core";
import { aBaby } from "@crown/core/testing/babies";
import type { HeadContourModel } from "@crown/core/measurement/index";
import { createTestDatabase, type TestDatabase } from "@crown/db/testing";
import { readOutbox } from "@crown/mail";
import { readConfig } from "../../apps/server/src/config.ts";
import { composeServices, createServerApp } from "../../apps/server/src/compose.ts";
import { loadModel, startReportWorker } from "../../apps/server/src/reports.ts";
import { b64, PASSWORD, type DatabaseKind, withSecondStep } from "./harness.ts";
import type { processApi } from "./crown-processes.ts";

/**
 * A stand-in for the head-contour model that reads the picture itself: skin-coloured pixels are
 * head, red pixels are the nose, nothing is a sticker and every quality logit says "fine". On the
 * synthetic photos below it yields exactly the drawn head, so the whole pipeline (letterbox, two
 * passes, outline, geometry, verdict, aggregation, PDF) runs for real and its numbers are known.
 */
/** What the stand-in calls itself: the name and version its measurements record (ADR 0066). */
export const COLOUR_MODEL = { name: "Colour stand-in model", version: "0.0.1-test" } as const;

export const colourModel = (size = 160): HeadContourModel => ({
  identity: COLOUR_MODEL,
  async run(input, n) {
    const plane = size * size;
    const mask = new Float32Array(n * plane);
    const nose = new Float32Array(n * plane);
    const sticker = new Float32Array(n * plane).fill(-10);
    const quality = new Float32Array(n * 8).fill(-6);
    for (let i = 0; i < n; i++) {
      const base = i * 3 * plane;
      for (let p = 0; p < plane; p++) {
        const r = input[base + p]!;
        const g = input[base + plane + p]!;
        const b = input[base + 2 * plane + p]!;
        const skin = r > 0.75 && g > 0.55 && g < 0.9 && b > 0.4 && b < 0.75;
        const red = r > 0.6 && g < 0.35 && b < 0.35;
        mask[i * plane + p] = skin ? 8 : -8;
        nose[i * plane + p] = red ? 6 : -8;
      }
    }
    return { mask, nose, sticker, quality };
  },
});

export interface HeadShape {
  /** Half-width and half-length of the head, in pixels. */
  readonly rx: number;
  readonly ry: number;
  readonly width?: number;
  readonly height?: number;
}
/** The CI of a drawn ellipse head: 100 × width / length. */
export const drawnCi = (s: HeadShape) => (100 * s.rx) / s.ry;

const svgOf = (s: HeadShape) => {
  const width = s.width ?? 600;
  const height = s.height ?? 800;
  const cx = width / 2;
  const cy = height / 2 + 30;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="rgb(30,40,80)"/>
    <ellipse cx="${cx}" cy="${cy}" rx="${s.rx}" ry="${s.ry}" fill="rgb(240,190,150)"/>
    <circle cx="${cx}" cy="${cy - s.ry - 10}" r="12" fill="rgb(220,20,20)"/>
  </svg>`;
};

/** A synthetic top-view photo (JPEG), optionally with an EXIF orientation and a GPS position to strip. */
export const headPhoto = async (s: HeadShape, options: { orientation?: number; gps?: boolean; format?: "jpeg" | "png" } = {}) => {
  let p = sharp(Buffer.from(svgOf(s)));
  if (options.format === "png") return new Uint8Array(await p.png().toBuffer());
  p = p.jpeg({ quality: 92 });
  if (options.orientation) p = p.withMetadata({ orientation: options.orientation });
  if (options.gps) p = p.withExifMerge({ IFD0: { Make: "Crown test" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 30/1", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 5/1" } });
  return new Uint8Array(await p.toBuffer());
};

/** A short MP4 of a head (ffmpeg from a still), or null when ffmpeg is missing. */
export const headVideo = async (s: HeadShape, seconds = 2): Promise<Uint8Array | null> => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "crown-video-fixture-"));
  try {
    const png = path.join(dir, "head.png");
    await fs.writeFile(png, await sharp(Buffer.from(svgOf(s))).png().toBuffer());
    const out = path.join(dir, "head.mp4");
    execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-loop", "1", "-i", png, "-t", String(seconds), "-r", "10", "-pix_fmt", "yuv420p", "-vf", "scale=480:-2", out]);
    return new Uint8Array(await fs.readFile(out));
  } catch {
    return null;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
};

/** The real server app on a fresh database with the colour model and the job worker running. */
export const startReportServer = async (kind: DatabaseKind, options: { model?: boolean | "real"; worker?: boolean; observe?: KyselyPlugin; env?: Record<string, string> } = {}) => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "crown-reports-"));
  // `env`: more of the configuration (e.g. S3_* for a bucket instead of files under the data directory).
  const config = readConfig({ PORT: "8080", CROWN_DATA_DIR: dataDir, PUBLIC_URL: "http://crown.test", TRUST_PROXY: "1", ...options.env });
  const testDb: TestDatabase = await createTestDatabase(kind);
  // `observe` sees every statement the server sends (e.g. to count them per request).
  const db = options.observe ? testDb.db.withPlugin(options.observe) : testDb.db;
  const services = await composeServices(
    config,
    // The database's own notifications (LISTEN/NOTIFY, PGlite's listen) as in production: an ended
    // session's event streams close at once, not at the next periodic check.
    { db, kind, close: async () => undefined, url: testDb.url, pglite: testDb.pglite },
    options.model === "real"
      ? await loadModel()
      : { model: options.model === false ? null : colourModel(), analyze: { inputSize: 160 }, problem: options.model === false ? "no model in this test" : null },
  );
  const app = createServerApp(config, services, (line) => {
    if (line.level === "error") console.error(line);
  });
  const worker = options.worker === false ? null : startReportWorker(testDb.db, services.run, undefined, { pollMs: 100 });
  let address = 0;
  const rawCall = async (method: string, url: string, opts: { body?: unknown; token?: string | null; form?: FormData } = {}) => {
    const headers: Record<string, string> = { "x-forwarded-for": `10.1.0.${(address++ % 250) + 1}` };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: BodyInit | undefined;
    if (opts.form) body = opts.form;
    else if (opts.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.body);
    }
    const response = await app.request(`/api/v1/en${url}`, { method, headers, body });
    const type = response.headers.get("content-type") ?? "";
    const json = type.includes("application/json") ? ((await response.json()) as Record<string, any>) : null;
    return { status: response.status, json: json ?? {}, response };
  };
  // Staff set up their second factor as they first sign in (issue 44; the harness's withSecondStep).
  const { signInCall: call, enrolled } = withSecondStep(rawCall);
  const run = services.run as <A, E>(e: Effect.Effect<A, E, any>) => Promise<A>;

  /** An Active, verified user of any type, signed in. */
  const user = async (type: UserType, firstName = "Sam", lastName: string = type) => {
    const email = `${type}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 7)}@example.org`;
    const created = await run(Accounts.createVerifiedUser({ email, password: PASSWORD, type, firstName, lastName }));
    const signIn = await call("POST", "/user/sign-in", { body: { email, password: b64(PASSWORD), device_type: "web" } });
    if (signIn.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(signIn.json)}`);
    const token = signIn.json.results.token as string;
    // A physician works with patient data only once the practice's BAA is signed (issue 22).
    if (type === "physician") await call("POST", "/user/sign-baa", { token, body: { name: `${firstName} ${lastName}`, covered_entity: `${lastName} Pediatrics` } });
    return { id: created.id, email, token };
  };
  const baby = async (parentId: string | null, physicianId: string | null, firstName = "Mia", dateOfBirth = "2026-08-01") => {
    const b = aBaby({
      id: `01B${Math.random().toString(36).slice(2, 12).toUpperCase().padEnd(23, "0")}`.slice(0, 26),
      parentId,
      physicianId,
      firstName,
      lastName: "Rivera",
      dateOfBirth,
      createdBy: parentId ?? physicianId ?? "seed",
    });
    await run(Effect.flatMap(Babies, (p) => p.insert(b)));
    return b;
  };
  const delegate = async (physicianId: string, staffId: string) =>
    run(
      Effect.flatMap(Delegations, (d) =>
        d.insert({ id: `01D${Math.random().toString(36).slice(2, 12).toUpperCase().padEnd(23, "0")}`.slice(0, 26), physicianId, staffId, staffType: "nurse", createdBy: physicianId, createdAt: new Date(), acceptedAt: new Date(), endedAt: null, endedBy: null }),
      ),
    );
  const upload = async (token: string, reportId: string, files: Array<{ name: string; bytes: Uint8Array; type?: string }>, identifierFirst = true) => {
    const form = new FormData();
    if (identifierFirst) form.append("report_identifier", reportId);
    for (const f of files) form.append("attachments[]", new Blob([f.bytes as Uint8Array<ArrayBuffer>], { type: f.type ?? "application/octet-stream" }), f.name);
    if (!identifierFirst) form.append("report_identifier", reportId);
    return call("POST", "/report/upload", { token, form });
  };
  /** Waits until the report reaches one of `statuses` (the worker runs on its own). */
  const waitFor = async (token: string, reportId: string, statuses: string[], timeoutMs = 60_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const r = await call("GET", `/report/${reportId}`, { token });
      if (statuses.includes(r.json.results?.status)) return r.json.results;
      if (Date.now() > until) throw new Error(`report ${reportId} stayed ${r.json.results?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  return {
    app,
    services,
    db: testDb.db,
    /** The database's URL (PostgreSQL only), for tools outside the process. */
    dbUrl: testDb.url ?? "",
    dataDir,
    worker,
    call,
    rawCall,
    secondFactorOf: (email: string) => enrolled.get(email.trim().toLowerCase()),
    get: (url: string, token?: string | null) => call("GET", url, { token: token ?? null }),
    post: (url: string, body?: unknown, token?: string | null) => call("POST", url, { body, token: token ?? null }),
    user,
    baby,
    delegate,
    upload,
    waitFor,
    outbox: () => readOutbox(dataDir),
    close: async () => {
      await worker?.stop();
      await services.close();
      await testDb.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
};
export type ReportServer = Awaited<ReturnType<typeof startReportServer>>;

/**
 * Against a running crown process: a baby for the parent with `email` (written straight to the
 * database), and a report with one drawn photo, uploaded and finalized over HTTP. Its identifier.
 */
export const finalizedPhotoReport = async (db: Kysely<any>, api: ReturnType<typeof processApi>["api"], email: string, token: string) => {
  const parentId = (await sql<{ id: string }>`select id from users where email = ${email}`.execute(db)).rows[0]!.id;
  const babyId = `01BPROC${randomBytes(10).toString("hex").toUpperCase()}`.slice(0, 26);
  await sql`insert into babies (id, parent_id, first_name, last_name, date_of_birth, relation, gender, created_by)
            values (${babyId}, ${parentId}, 'Mia', 'Rivera', '2026-08-01', 'mother', 'female', ${parentId})`.execute(db);
  const prepared = await api("POST", "/report/prepare", token, { baby_identifier: babyId, analysis_type: "head_ci_cvai_analysis" });
  if (prepared.status !== 201) throw new Error(`prepare: ${prepared.status} ${JSON.stringify(prepared.json)}`);
  const reportId = prepared.json.results.report_identifier as string;
  const form = new FormData();
  form.append("report_identifier", reportId);
  form.append("attachments[]", new Blob([(await headPhoto({ rx: 170, ry: 210 })) as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }), "photo.jpg");
  const uploaded = await api("POST", "/report/upload", token, form);
  if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${JSON.stringify(uploaded.json)}`);
  const finalized = await api("POST", "/report/finalize", token, { report_identifier: reportId });
  if (finalized.status !== 200) throw new Error(`finalize: ${finalized.status} ${JSON.stringify(finalized.json)}`);
  return reportId;
};
