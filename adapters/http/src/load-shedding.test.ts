import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { busyBodyFor } from "./app.ts";
import { translate } from "./i18n.ts";
import { BUSY_MESSAGE, LoadGate, refuseEarly, shedLoad } from "./load-shedding.ts";

const gate = (maxInFlight: number, retryAfterSeconds = 1, maxLoopDelayMs = 100) => new LoadGate({ maxInFlight, retryAfterSeconds, maxLoopDelayMs });

describe("load shedding", () => {
  it("answers 503 with Retry-After at once beyond the in-flight limit, and serves again once requests finish", async () => {
    const releases: Array<() => void> = [];
    const app = new Hono()
      .use("*", shedLoad(gate(2, 3)))
      .get("/slow", async (c) => {
        await new Promise<void>((resolve) => releases.push(resolve));
        return c.json({ message: "done" });
      });
    const first = app.request("/slow");
    const second = app.request("/slow");
    await new Promise((r) => setTimeout(r, 10));
    const refused = await app.request("/slow");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect(await refused.json()).toEqual({ message: BUSY_MESSAGE });
    for (const release of releases.splice(0)) release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    const again = app.request("/slow");
    await new Promise((r) => setTimeout(r, 10));
    releases.splice(0).forEach((release) => release());
    const answer = await again;
    expect(answer.status).toBe(200);
    expect(answer.headers.get("server-timing")).toMatch(/^app;dur=\d+(\.\d)?$/);
  });

  it("frees the slot when a handler throws", async () => {
    const app = new Hono()
      .use("*", shedLoad(gate(1)))
      .get("/boom", () => {
        throw new Error("boom");
      })
      .get("/ok", (c) => c.text("ok"));
    expect((await app.request("/boom")).status).toBe(500);
    expect((await app.request("/ok")).status).toBe(200);
  });

  it("refuses while the event loop lags under its own requests, and not when little is in progress", async () => {
    const g = gate(8, 1, 100);
    const stop = g.watchEventLoop();
    try {
      for (let i = 0; i < 5; i++) g.enter();
      // The loop is held 300 ms (as a CPU-bound burst of our own requests would hold it), then the next sample sees it.
      const until = performance.now() + 300;
      while (performance.now() < until) {
        /* busy */
      }
      await new Promise((r) => setTimeout(r, 20));
      expect(g.admits()).toBe(false);
      // The same lag with half the limit in progress or less is not ours to shed.
      g.leave();
      expect(g.admits()).toBe(true);
      for (let i = 0; i < 4; i++) g.leave();
    } finally {
      stop();
    }
  });

  it("names the busy answer in the prefix's language and never sheds static paths", () => {
    expect(JSON.parse(busyBodyFor("/api/v1/en/report/results?page=1")!)).toEqual({ message: BUSY_MESSAGE });
    expect(JSON.parse(busyBodyFor("/api/v1/es/report/results")!)).toEqual({ message: translate(BUSY_MESSAGE, "es") });
    expect(JSON.parse(busyBodyFor("/fhir/R4/Patient")!)).toEqual({ message: BUSY_MESSAGE });
    expect(busyBodyFor("/assets/index-abc.js")).toBeNull();
    expect(busyBodyFor("/readyz")).toBeNull();
    expect(busyBodyFor("/api/v1/xx/anything")).toBeNull();
  });
});

describe("load shedding on a real server", () => {
  let server: Server | undefined;
  let agent: Agent | undefined;
  afterEach(async () => {
    agent?.destroy();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  });

  /** A server as `crown start` builds it: the early refusal in the Node listener, the count in Hono. Each admitted request holds `holdMs`. */
  const serve = async (g: LoadGate, holdMs: number) => {
    const app = new Hono().use("/api/v1/*", shedLoad(g)).post("/api/v1/:language/slow", async (c) => {
      await c.req.json();
      await new Promise((r) => setTimeout(r, holdMs));
      return c.json({ message: "done" });
    });
    server = createServer(refuseEarly(g, busyBodyFor, getRequestListener(app.fetch)));
    await new Promise<void>((r) => server!.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, r));
    agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  const call = (base: string, language = "en") =>
    new Promise<{ status: number; retryAfter: unknown; timing: unknown; body: { message: string }; ms: number }>((resolve, reject) => {
      const started = performance.now();
      const req = request(`${base}/api/v1/${language}/slow`, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"], timing: res.headers["server-timing"], body: JSON.parse(text), ms: performance.now() - started }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(JSON.stringify({ a: 1 }));
    });

  it("answers a flood's surplus 503 before any admitted request finishes, in the spec's shape", async () => {
    const g = gate(8);
    const holdMs = 1_500;
    const base = await serve(g, holdMs);
    const answers = await Promise.all(Array.from({ length: 400 }, (_, i) => call(base, i % 2 === 0 ? "en" : "es")));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 503);
    expect(ok.length + refused.length).toBe(400);
    expect(ok.length).toBeGreaterThanOrEqual(8);
    expect(refused.length).toBeGreaterThan(300);
    for (const a of refused) {
      expect(a.retryAfter).toBe("1");
      expect(Object.keys(a.body)).toEqual(["message"]);
      expect([BUSY_MESSAGE, translate(BUSY_MESSAGE, "es")]).toContain(a.body.message);
    }
    // Relative, not a wall-clock figure for a loaded machine: a refusal never waits for the work it refuses.
    const slowestRefusal = Math.max(...refused.map((a) => a.ms));
    const fastestAdmitted = Math.min(...ok.map((a) => a.ms));
    expect(fastestAdmitted).toBeGreaterThanOrEqual(holdMs);
    expect(slowestRefusal).toBeLessThan(fastestAdmitted);
    expect(g.inFlight).toBe(0);
    expect(ok.every((a) => /^app;dur=/.test(String(a.timing)))).toBe(true);
  });

  it("refuses nothing under a load within the limit", async () => {
    const g = gate(8);
    const base = await serve(g, 5);
    const answers: number[] = [];
    // Six callers in a loop, each with one request at a time: never more than six in progress.
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let i = 0; i < 40; i++) answers.push((await call(base)).status);
      }),
    );
    expect(answers).toHaveLength(240);
    expect(answers.filter((s) => s !== 200)).toEqual([]);
    expect(g.refused).toBe(0);
  });
});
