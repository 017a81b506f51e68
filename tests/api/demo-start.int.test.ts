import { readFileSync, statSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { freePort } from "../e2e/helpers/server.ts";
import { type CrownProcess, spawnCrown, stopCrown, waitUntil } from "./crown-processes.ts";

/**
 * `pnpm crown start` on the embedded default, as a newcomer runs it (ADR 24): it listens on
 * 127.0.0.1 only, and prints demo passwords made for its data directory, which sign in.
 */

/** Whether a TCP connection to host:port is accepted. */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 3000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });

const outsideAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

describe("pnpm crown start on the embedded database", () => {
  let crown: CrownProcess | undefined;
  afterAll(async () => {
    await stopCrown(crown);
  });

  test("listens on 127.0.0.1 only, and its printed demo passwords are the saved ones and sign in", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // HOST empty: the default applies even when the test runner's environment has one.
    crown = spawnCrown(["start"], { PORT: String(port), PUBLIC_URL: url, CROWN_WORKER: "off", HOST: "", DATABASE_URL: "" }, "crown-demo-start-");
    await waitUntil("ready", crown, async () => (await fetch(`${url}/readyz`).catch(() => null))?.ok === true);

    const other = outsideAddress();
    if (other) expect(await accepts(other, port), `${other}:${port}`).toBe(false);

    const file = path.join(crown.dataDir, "demo-accounts.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, "utf8")) as Array<{ role: string; email: string; password: string }>;
    expect(saved).toHaveLength(5);
    await waitUntil("printed", crown, () => crown!.output().includes("demo accounts"));
    const admin = saved.find((a) => a.role === "admin")!;
    expect(crown.output()).toContain(admin.password);
    expect(crown.output()).not.toContain("Crown-demo-2026!");
    const signIn = (password: string) =>
      fetch(`${url}/api/v1/en/user/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: admin.email, password: Buffer.from(password).toString("base64"), device_type: "web" }),
      });
    expect((await signIn(admin.password)).status).toBe(200);
    expect((await signIn("Crown-demo-2026!")).status).toBe(422);
  }, 300_000);
});
