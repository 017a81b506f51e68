import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Starts s3rver (a local S3 emulator) in a child process on a random port with a temporary
 * directory, for integration tests. A child, so its memory never counts against the process
 * under test. s3rver accepts the fixed credentials S3RVER / S3RVER.
 */
export const startS3rver = async (): Promise<{ endpoint: string; accessKey: string; secretKey: string; stop: () => Promise<void> }> => {
  const directory = await mkdtemp(path.join(tmpdir(), "crown-s3rver-"));
  const script = `
    const S3rver = require("s3rver");
    new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: process.argv[1] })
      .run()
      .then((addr) => process.stdout.write(JSON.stringify({ port: addr.port }) + "\\n"))
      .catch((e) => { console.error(e); process.exit(1); });
  `;
  const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const child = spawn(process.execPath, ["-e", script, directory], { cwd: packageDir, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once("exit", (code) => reject(new Error(`s3rver exited (${code}): ${stderr.slice(0, 500)}`)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKey: "S3RVER",
    secretKey: "S3RVER",
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
};
