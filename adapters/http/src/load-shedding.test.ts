import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { BUSY_MESSAGE, shedLoad } from "./load-shedding.ts";

describe("load shedding", () => {
  it("answers 503 with Retry-After at once beyond the in-flight limit, and serves again once requests finish", async () => {
    const releases: Array<() => void> = [];
    const app = new Hono()
      .use("*", shedLoad({ maxInFlight: 2, retryAfterSeconds: 3 }))
      .get("/slow", async (c) => {
        await new Promise<void>((resolve) => releases.push(resolve));
        return c.json({ message: "done" });
      });
    const first = app.request("/slow");
    const second = app.request("/slow");
    await new Promise((r) => setTimeout(r, 10));
    const started = performance.now();
    const refused = await app.request("/slow");
    expect(performance.now() - started).toBeLessThan(100);
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
      .use("*", shedLoad({ maxInFlight: 1, retryAfterSeconds: 1 }))
      .get("/boom", () => {
        throw new Error("boom");
      })
      .get("/ok", (c) => c.text("ok"));
    expect((await app.request("/boom")).status).toBe(500);
    expect((await app.request("/ok")).status).toBe(200);
  });
});
