import { fc, test } from "@fast-check/vitest";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/**
 * Hostile input at every call of the OpenAPI document (issue 16, item 3): arbitrary JSON, text with
 * NUL bytes and broken characters, bodies nested thousands deep, multipart that is truncated or
 * has the wrong boundary, in paths, queries, fields and file names. Every answer must be below 500
 * with the spec's error shape, and the server must answer normally afterwards. In-process on PGlite.
 * The FHIR R4 API's interactions (read from its CapabilityStatement) too, whose errors are
 * OperationOutcomes.
 */

const RUNS = Number(process.env.CROWN_FUZZ_RUNS ?? 2000);

interface Call {
  readonly method: "get" | "post";
  /** OpenAPI path with {params}; a FHIR path is absolute (`/fhir/R4/…`). */
  readonly path: string;
  readonly fhir?: boolean;
  readonly fields: ReadonlyArray<string>;
}

/** Strings a client may send, hostile ones weighted up. */
const text = fc.oneof(
  { weight: 2, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: "binary" }) },
  { weight: 3, arbitrary: fc.constantFrom("\u0000", "a\u0000b", "\uD800", "x\uDC00y", "\uDBFF\u0000", " ", "", "😀", "%00", "../../etc/passwd", "' OR 1=1 --") },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 300, maxLength: 2000 }) },
);

/** Percent-encodes a URL piece; lone surrogates (which no URL can carry) go as the bytes a broken client would send. */
const urlPiece = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "")) + "%ED%A0%80";
  }
};

const nested = (depth: number, leaf: unknown, asArray: boolean): string => (asArray ? "[".repeat(depth) + JSON.stringify(leaf) + "]".repeat(depth) : '{"a":'.repeat(depth) + JSON.stringify(leaf) + "}".repeat(depth));

type Body = { readonly type: string | null; readonly bytes: BodyInit | null; readonly label: string };

const BOUNDARY = "----crown-fuzz";
const multipart = (fields: Array<[string, string]>, files: Array<{ name: string; fileName: string; bytes: Uint8Array }>, cut: number | null, boundary = BOUNDARY) => {
  const chunks: Buffer[] = [];
  for (const [name, value] of fields) chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const f of files) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    chunks.push(Buffer.from(f.bytes), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  const all = Buffer.concat(chunks);
  return { type: `multipart/form-data; boundary=${boundary}`, bytes: new Uint8Array(cut === null ? all : all.subarray(0, Math.floor(all.byteLength * cut))) };
};

describe("hostile input at every route", () => {
  let s: ReportServer;
  let calls: Call[] = [];
  const tokens: Record<string, string | null> = { none: null, garbage: "not-a-token" };
  const ids: string[] = [];
  let photo = new Uint8Array();

  beforeAll(async () => {
    s = await startReportServer("pglite", { worker: false });
    const doc = (await s.get("/openapi.json")).json as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>> };
    calls = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method as Call["method"],
        path,
        fields: Object.keys(Object.values(op.requestBody?.content ?? {})[0]?.schema?.properties ?? {}),
      })),
    );
    const capability = (await (await s.app.request("/fhir/R4/metadata")).json()) as {
      rest: Array<{ resource: Array<{ type: string; interaction: Array<{ code: string }>; operation?: Array<{ name: string }> }> }>;
    };
    const fhirCall = (path: string): Call => ({ method: "get", path: `/fhir/R4${path}`, fields: [], fhir: true });
    calls.push(
      fhirCall("/metadata"),
      ...capability.rest[0]!.resource.flatMap((r) => [
        ...r.interaction.map((i) => fhirCall(i.code === "read" ? `/${r.type}/{id}` : `/${r.type}`)),
        ...(r.operation ?? []).map((o) => fhirCall(`/${r.type}/{id}/$${o.name}`)),
      ]),
    );
    for (const type of ["parent", "physician", "reviewer", "admin"] as const) {
      const u = await s.user(type);
      tokens[type] = u.token;
      ids.push(u.id);
    }
    const parentId = ids[0]!;
    const baby = await s.baby(parentId, ids[1]!);
    ids.push(baby.id);
    const report = await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, tokens.parent);
    ids.push(report.json.results.report_identifier);
    photo = await headPhoto({ rx: 60, ry: 80, width: 200, height: 240 });
  });
  afterAll(async () => {
    await s?.close();
  });

  const arbCall = fc.integer({ min: 0, max: 10_000 }).map((i) => calls[i % calls.length]!);
  const arbId = fc.oneof(fc.integer({ min: 0, max: 100 }).map((i) => ids[i % ids.length]!), text);
  const arbQuery = fc.array(fc.tuple(fc.oneof(fc.constantFrom("page", "per_page", "search", "token", "before", "type", "status", "report_identifier", "expires", "subject", "code", "date", "_count", "_offset", "_sort"), text), fc.oneof(text, arbId.map((id) => `Patient/${id}`), fc.constantFrom("ge2026-01-01", "lt", "eq2026-13-45T99:99", "-date", "0", "-1", "1e999", "99999999999999999999", "1e+21", "9007199254740993"))), { maxLength: 3 });

  /** A body for a call: JSON built from its fields, arbitrary JSON, deep nesting, multipart (whole, truncated, wrong boundary), or bytes. */
  const arbBody = (call: Call): fc.Arbitrary<Body> => {
    const fieldName = call.fields.length > 0 ? fc.oneof(fc.constantFrom(...call.fields), text) : text;
    const value: fc.Arbitrary<unknown> = fc.oneof(text, fc.jsonValue(), arbId, fc.array(text, { maxLength: 3 }));
    return fc.oneof(
      fc.dictionary(fieldName, value, { maxKeys: 6 }).map((o) => ({ type: "application/json", bytes: JSON.stringify(o), label: "fields" })),
      fc.jsonValue().map((v) => ({ type: "application/json", bytes: JSON.stringify(v), label: "json" })),
      fc.tuple(fc.integer({ min: 100, max: 20_000 }), fieldName, fc.boolean()).map(([depth, field, asArray]) => ({
        type: "application/json",
        bytes: `{${JSON.stringify(field)}:${nested(depth, "x", asArray)}}`,
        label: `nested ${depth}`,
      })),
      fc
        .tuple(fc.array(fc.tuple(fieldName, text), { maxLength: 4 }), fc.array(fc.tuple(fc.constantFrom("attachments[]", "images", "profile_photo", "image"), text, fc.boolean()), { maxLength: 3 }), fc.option(fc.double({ min: 0, max: 1, noNaN: true })), fc.boolean())
        .map(([fields, files, cut, wrongBoundary]) => {
          const m = multipart(
            fields.map(([k, v]) => [k.replace(/["\r\n]/g, ""), v]),
            files.map(([name, fileName, real]) => ({ name, fileName: fileName.replace(/["\r\n]/g, ""), bytes: real ? photo : new TextEncoder().encode(fileName) })),
            cut,
            wrongBoundary ? "----not-the-boundary" : BOUNDARY,
          );
          return { type: m.type, bytes: m.bytes, label: `multipart cut=${cut} wrong=${wrongBoundary}` };
        }),
      fc.tuple(fc.uint8Array({ maxLength: 512 }), fc.constantFrom("application/json", "multipart/form-data", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "text/plain", null)).map(([bytes, type]) => ({ type, bytes, label: "bytes" })),
      fc.constant<Body>({ type: null, bytes: null, label: "none" }),
    );
  };

  const arbRequest = arbCall.chain((call) =>
    fc.record({
      call: fc.constant(call),
      params: fc.array(arbId, { minLength: 4, maxLength: 4 }),
      query: arbQuery,
      who: fc.constantFrom("none", "garbage", "parent", "physician", "reviewer", "admin"),
      body: call.method === "post" ? arbBody(call) : fc.constant<Body>({ type: null, bytes: null, label: "none" }),
    }),
  );

  test.prop([arbRequest], { numRuns: RUNS, timeout: 20_000 })(
    "no 5xx, and every error in the spec's shape",
    async ({ call, params, query, who, body }) => {
      let n = 0;
      const path = call.path.replace(/\{[^}]+\}/g, () => urlPiece(params[n++ % params.length]!));
      const search = query.map(([k, v]) => `${urlPiece(k)}=${urlPiece(v)}`).join("&");
      const headers: Record<string, string> = { "x-forwarded-for": `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}` };
      if (tokens[who]) headers.authorization = `Bearer ${tokens[who]}`;
      if (body.type) headers["content-type"] = body.type;
      const response = await s.app.request(`${call.fhir ? "" : "/api/v1/en"}${path}${search ? `?${search}` : ""}`, { method: call.method.toUpperCase(), headers, body: body.bytes });
      const type = response.headers.get("content-type") ?? "";
      const what = `${call.method} ${path} (${body.label}) as ${who}`;
      if (type.includes("text/event-stream")) {
        await response.body?.cancel();
        return;
      }
      const raw = await response.text();
      expect(response.status, `${what}: ${raw.slice(0, 300)}`).toBeLessThan(500);
      if (call.fhir && response.status >= 400 && response.status !== 429) {
        const outcome = JSON.parse(raw) as { resourceType?: unknown; issue?: unknown };
        expect(outcome.resourceType, what).toBe("OperationOutcome");
        expect(Array.isArray(outcome.issue), what).toBe(true);
      } else if (response.status >= 400 && response.status !== 429) {
        const json = JSON.parse(raw) as { message?: unknown; errors?: Record<string, unknown> };
        expect(typeof json.message, what).toBe("string");
        if (response.status === 422) expect(Object.values(json.errors ?? {}).every((v) => Array.isArray(v) && v.every((m) => typeof m === "string")), what).toBe(true);
      }
    },
    // The issue's budget: 2,000 requests in under 2 minutes.
    120_000,
  );

  /** Every query parameter the OpenAPI document describes as a whole number, with its range. */
  const numericParameters = async () => {
    const doc = (await s.get("/openapi.json")).json as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: { type?: string; minimum?: number; maximum?: number } }> }>>;
    };
    return Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        (op.parameters ?? [])
          .filter((p) => p.in === "query" && (p.schema.type === "integer" || p.schema.type === "number"))
          .map((p) => ({ method, path, name: p.name, min: p.schema.minimum ?? Number.MIN_SAFE_INTEGER, max: p.schema.maximum ?? Number.MAX_SAFE_INTEGER })),
      ),
    );
  };

  test.prop([fc.constant(null)], { numRuns: 1 })("every numeric query parameter of the OpenAPI document: a whole number in range is read, anything else is the spec's 422 naming it (issue 46)", async () => {
    const parameters = await numericParameters();
    // The paged lists at least: page on every one, per_page where it is a query value.
    expect(parameters.filter((p) => p.name === "page").length).toBeGreaterThanOrEqual(14);
    expect(parameters.map((p) => `${p.method} ${p.path} ${p.name}`)).toEqual(expect.arrayContaining(["get /admin/users page", "get /admin/users per_page", "get /admin/users/pending page", "get /user/notifications page"]));
    const call = async (p: (typeof parameters)[number], who: string, value: string | null) => {
      const headers: Record<string, string> = { "x-forwarded-for": `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}` };
      if (tokens[who]) headers.authorization = `Bearer ${tokens[who]}`;
      if (p.method === "post") headers["content-type"] = "application/json";
      const path = p.path.replace(/\{[^}]+\}/g, ids[0]!);
      const r = await s.app.request(`/api/v1/en${path}${value === null ? "" : `?${p.name}=${encodeURIComponent(value)}`}`, { method: p.method.toUpperCase(), headers, body: p.method === "post" ? "{}" : null });
      return { status: r.status, json: (await r.json().catch(() => ({}))) as { message?: unknown; errors?: Record<string, unknown> } };
    };
    // The values: in range, at and past each end, and what a careless parser reads as a number.
    const value = (p: { min: number; max: number }) =>
      fc.oneof(
        fc.integer({ min: Math.max(p.min, -1e9), max: Math.min(p.max, 1e9) }).map(String),
        fc.constantFrom(String(p.min), String(p.max), String(p.min - 1), String(p.max + 1), "99999999999999999999", "1e+21", "1e2", "1.5", "-1", "0x10", " 1", "1 ", " ", "", "+1", "Infinity", "NaN", "abc", "9007199254740993", "0000000000000001", "00000000000000000001"),
        fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
        fc.string({ maxLength: 8 }),
      );
    for (const p of parameters) {
      // A caller this list answers (the lists are for different roles).
      let who = "";
      for (const candidate of ["admin", "physician", "parent", "reviewer"]) {
        if ((await call(p, candidate, null)).status !== 401 && (await call(p, candidate, null)).status !== 403) {
          who = candidate;
          break;
        }
      }
      if (who === "") continue;
      await fc.assert(
        fc.asyncProperty(value(p), async (v) => {
          const r = await call(p, who, v);
          const what = `${p.method} ${p.path}?${p.name}=${JSON.stringify(v)} as ${who}: ${r.status} ${JSON.stringify(r.json).slice(0, 200)}`;
          expect(r.status, what).toBeLessThan(500);
          // Values are trimmed (api-contract.md); empty is the parameter's default.
          const t = v.trim();
          const valid = t === "" || (/^[0-9]{1,16}$/.test(t) && Number(t) >= p.min && Number(t) <= p.max);
          if (valid) expect(r.json.errors?.[p.name], what).toBeUndefined();
          else {
            expect(r.status, what).toBe(422);
            expect(r.json.errors?.[p.name], what).toEqual([expect.any(String)]);
          }
        }),
        { numRuns: 40 },
      );
    }
  }, 300_000);

  test.prop([fc.constant(null)], { numRuns: 1 })("the server still answers after the storm", async () => {
    expect((await s.get("/config")).status).toBe(200);
    // A fresh session (the storm may have signed the others out) reads as before.
    const parent = await s.user("parent");
    expect((await s.get("/user/profile", parent.token)).status).toBe(200);
    const baby = await s.baby(parent.id, null);
    expect((await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).status).toBe(201);
  });
});
