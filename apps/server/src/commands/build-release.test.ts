import { describe, expect, it } from "vitest";
import { runCommand, StoppedAfter } from "./build-release.ts";

// The release's commands have a limit: a stalled `pnpm deploy` is stopped and tried again instead of holding
// the build (and CI) until something else gives up.
describe("the release build's commands", () => {
  it("stops a command that outlasts its limit, as a stall and not as a failure", async () => {
    const started = Date.now();
    const error = await runCommand(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], process.cwd(), 500).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoppedAfter);
    expect(String(error)).toContain("was stopped (SIGKILL)");
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("reports a command that fails on its own with its exit code and output", async () => {
    const error = await runCommand(process.execPath, ["-e", "console.error('no store'); process.exit(3)"], process.cwd(), 60_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(StoppedAfter);
    expect(String(error)).toMatch(/exited with 3:\s*no store/);
  });

  it("returns what a command printed when it succeeds", async () => {
    await expect(runCommand(process.execPath, ["-e", "process.stdout.write('ok')"], process.cwd(), 60_000)).resolves.toBe("ok");
  });
});
