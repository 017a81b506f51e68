import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { Accounts } from "@crown/core";
import { afterAll, describe, expect, test } from "vitest";
import { freePort } from "../e2e/helpers/server.ts";
import { type CrownProcess, repoRoot, stopCrown, waitUntil } from "./crown-processes.ts";
import { b64, fetchApiCall, withSecondStep } from "./harness.ts";

/**
 * `pnpm start` on the embedded default, as a newcomer runs it (ADR 24): the build (a hash check when up
 * to date), then the release folder with plain node (ADR 0139). It listens on 127.0.0.1 only, and prints
 * demo passwords made for its data directory, which sign in.
 */

/** `pnpm start` in its own process group, on a fresh data directory. */
const spawnPnpmStart = (env: Record<string, string>): CrownProcess => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "crown-demo-start-"));
  let output = "";
  const child = spawn("pnpm", ["start"], { cwd: repoRoot, env: { ...process.env, ...env, CROWN_DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout?.on("data", (d) => (output += String(d)));
  child.stderr?.on("data", (d) => (output += String(d)));
  return { child, output: () => output, dataDir };
};

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

describe("pnpm start on the embedded database", () => {
  let crown: CrownProcess | undefined;
  afterAll(async () => {
    await stopCrown(crown);
  });

  test("listens on 127.0.0.1 only, and its printed demo passwords are the saved ones and sign in", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // HOST empty: the default applies even when the test runner's environment has one.
    crown = spawnPnpmStart({ PORT: String(port), PUBLIC_URL: url, CROWN_WORKER: "off", HOST: "", DATABASE_URL: "" });
    // A first build of the release on a fresh clone takes minutes on a loaded machine.
    await waitUntil("ready", crown, async () => (await fetch(`${url}/readyz`).catch(() => null))?.ok === true, 280_000);
    // The release serves it, not the sources through tsx: the command lines of the processes pnpm started.
    const commands = readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .flatMap((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
          const group = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
          return group === crown!.child.pid ? [readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ")] : [];
        } catch {
          return [];
        }
      });
    expect(commands.some((c) => /^node\S* dist\/release\/crown\.mjs start/.test(c) || /\/node dist\/release\/crown\.mjs start/.test(c)), commands.join("\n")).toBe(true);
    expect(commands.filter((c) => /tsx|\.ts\b/.test(c)), commands.join("\n")).toEqual([]);

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
    const first = await signIn(admin.password);
    expect(first.status).toBe(200);
    expect((await signIn("Crown-demo-2026!")).status).toBe(422);

    // README's two-step paragraph: the demo admin signs in with the printed password and must set up a
    // second step before any console; once set up, every sign-in with the password asks for a code.
    const firstAnswer = (await first.json()) as { results: { token: string; step: string } };
    expect(firstAnswer.results.step).toBe("secondFactor");
    const call = fetchApiCall(() => url);
    expect((await call("GET", "/admin/users/pending", { token: firstAnswer.results.token })).json.status).toBe(Accounts.SECOND_FACTOR_SETUP_STATUS);
    const { signInCall } = withSecondStep(call);
    const adminSession = await signInCall("POST", "/user/sign-in", { body: { email: admin.email, password: b64(admin.password), device_type: "web" } });
    expect(adminSession.status).toBe(200);
    expect((await call("GET", "/admin/users/pending", { token: adminSession.json.results.token })).status).toBe(200);
    const withoutCode = await signIn(admin.password);
    expect(withoutCode.status).toBe(403);
    expect(((await withoutCode.json()) as { status: string }).status).toBe(Accounts.SECOND_FACTOR_STEP_STATUS);
    // The demo parent signs in with the password alone (two-step sign-in is theirs to turn on).
    const parent = saved.find((a) => a.role === "parent")!;
    const parentAnswer = await call("POST", "/user/sign-in", { body: { email: parent.email, password: b64(parent.password), device_type: "web" } });
    expect(parentAnswer.status).toBe(200);
    expect(parentAnswer.json.results.step).not.toBe("secondFactor");
    expect((await call("GET", "/user/profile", { token: parentAnswer.json.results.token })).status).toBe(200);
  }, 420_000);
});
