import type { IncomingMessage, Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LoadGate, readSmallBody } from "@crown/http";
import { createHttpServer } from "../../apps/server/src/start.ts";
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

/*
 * The same limits over a real socket (ADR 0103): on the Node server the body policy reads a JSON body from
 * the Node request itself, so `app.request` above does not reach that path.
 */
describe("JSON bodies over a real socket", () => {
  let server: TestServer;
  let http: Server;
  let port = 0;
  beforeAll(async () => {
    server = await startTestServer("pglite");
    http = createHttpServer(server.app, new LoadGate(), 1000);
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    port = (http.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => http?.close(resolve));
    await server?.close();
  });

  /** Sends raw bytes and returns the status line's code (0 if the connection closed without an answer). */
  const raw = (head: string, body: (socket: Socket) => void) =>
    new Promise<number>((resolve) => {
      let answer = "";
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(head);
        body(socket);
      });
      socket.setEncoding("latin1");
      socket.on("data", (d: string) => {
        answer += d;
        if (answer.includes("\r\n\r\n")) socket.destroy();
      });
      socket.on("error", () => undefined);
      socket.on("close", () => resolve(Number(answer.slice(9, 12)) || 0));
    });

  test("a JSON call is read and answered; a declared length over 1 MB is a 413 before any byte is read", async () => {
    const ok = await fetch(`http://127.0.0.1:${port}${RECOVER}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.9.8.1" },
      body: JSON.stringify({ email: uniqueEmail("socket") }),
    });
    expect(ok.status).toBe(200);
    const notJson = await fetch(`http://127.0.0.1:${port}${RECOVER}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.9.8.2" },
      body: "[1, 2]",
    });
    expect(notJson.status).toBe(422);
    const declared = await raw(
      `POST ${RECOVER} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${2 * 1024 * 1024}\r\n\r\n`,
      (socket) => socket.write("{"),
    );
    expect(declared).toBe(413);
  });

  test("a chunked body is cut off at 413 as soon as it passes the limit", async () => {
    const chunk = "a".repeat(64 * 1024);
    let sent = 0;
    const status = await raw(`POST ${RECOVER} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`, (socket) => {
      const more = () => {
        while (sent < 64 * 1024 * 1024 && !socket.destroyed) {
          sent += chunk.length;
          if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once("drain", more);
        }
      };
      more();
    });
    expect(status).toBe(413);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  test("a client gone in the middle of its body leaves nothing waiting", async () => {
    const incoming = new PassThrough() as unknown as IncomingMessage;
    const reading = readSmallBody(incoming, 1024);
    (incoming as unknown as PassThrough).write("{\"email\":");
    (incoming as unknown as PassThrough).destroy();
    await expect(reading).rejects.toThrow(/ended early/);
    const stream = new PassThrough();
    const small = readSmallBody(stream as unknown as IncomingMessage, 4);
    stream.end("12345");
    await expect(small).resolves.toBeNull();
    // The server still answers afterwards.
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/en/config`)).status).toBe(200);
  });
});
