import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds, signUpVerified, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

const RECOVER = "/api/v1/en/user/password/recover";

/** A body that never ends, counting what the server pulled from it. */
const endlessBody = () => {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const counter = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      counter.cancelled = true;
    },
  });
  return { stream, counter };
};

const send = (server: TestServer, path: string, init: RequestInit & { headers?: Record<string, string> }) =>
  server.app.request(path, { duplex: "half", ...init, headers: { "x-forwarded-for": "10.9.9.9", ...init.headers } } as RequestInit);

describe.each(await databaseKinds())("HTTP hardening on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  test("an endless JSON body to forgot-password is cut off at the limit with 413, never read whole", async () => {
    const { stream, counter } = endlessBody();
    const res = await send(server, RECOVER, { method: "POST", body: stream, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: "The request body is too large." });
    // The limit is 1 MB; the server read at most a little past it.
    expect(counter.pulled).toBeLessThan(2 * 1024 * 1024);
  });

  test("a declared oversized body is refused from its Content-Length, before a byte is read", async () => {
    const { stream, counter } = endlessBody();
    const res = await send(server, RECOVER, { method: "POST", body: stream, headers: { "content-type": "application/json", "content-length": String(560 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(128 * 1024);
  });

  test("multipart to a JSON call is a 415 before the body is read, however large", async () => {
    const { stream, counter } = endlessBody();
    const res = await send(server, RECOVER, { method: "POST", body: stream, headers: { "content-type": "multipart/form-data; boundary=xyz" } });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ message: "This call takes a JSON body (application/json)." });
    expect(counter.pulled).toBeLessThanOrEqual(128 * 1024);
    const small = new FormData();
    small.set("email", uniqueEmail("form"));
    expect((await send(server, RECOVER, { method: "POST", body: small })).status).toBe(415);
    expect((await send(server, "/api/v1/en/user/sign-in", { method: "POST", body: "x", headers: { "content-type": "text/xml" } })).status).toBe(415);
  });

  test("JSON still works, and the upload routes still take multipart", async () => {
    const ok = await send(server, RECOVER, { method: "POST", body: JSON.stringify({ email: uniqueEmail("json") }), headers: { "content-type": "application/json; charset=utf-8" } });
    expect(ok.status).toBe(200);
    const parent = await signUpVerified(server, "parent");
    const form = new FormData();
    form.set("text", "Hello support");
    const message = await server.call("POST", "/chat/conversation/messages", { token: parent.token, form });
    expect(message.status).toBe(201);
  });

  test("every API answer is no-store (files: tests/api/read-audit.test.ts); HSTS only over HTTPS as the trusted proxy says", async () => {
    const parent = await signUpVerified(server, "parent");
    const profile = await server.get("/user/profile", parent.token);
    expect(profile.status).toBe(200);
    expect(profile.response.headers.get("cache-control")).toBe("no-store");
    const denied = await server.get("/user/profile", "nope");
    expect(denied.status).toBe(401);
    expect(denied.response.headers.get("cache-control")).toBe("no-store");
    const notFound = await server.get("/no/such/route", parent.token);
    expect(notFound.response.headers.get("cache-control")).toBe("no-store");
    expect(profile.response.headers.get("strict-transport-security")).toBeNull();
    const overTls = await send(server, "/api/v1/en/config", { headers: { "x-forwarded-proto": "https" } });
    expect(overTls.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
    // A client cannot claim HTTPS past the proxy: the proxy's own entry is the last one.
    const spoofed = await send(server, "/api/v1/en/config", { headers: { "x-forwarded-proto": "https, http" } });
    expect(spoofed.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("HSTS without a trusted proxy", () => {
  test("X-Forwarded-Proto is ignored when TRUST_PROXY is off", async () => {
    const server = await startTestServer("pglite", { TRUST_PROXY: "0" });
    try {
      const res = await send(server, "/api/v1/en/config", { headers: { "x-forwarded-proto": "https" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("strict-transport-security")).toBeNull();
      expect(res.headers.get("cache-control")).toBe("no-store");
    } finally {
      await server.close();
    }
  });
});
