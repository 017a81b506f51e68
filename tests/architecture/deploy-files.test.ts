import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, test } from "vitest";
import { RELEASE_DIR } from "../../apps/server/src/commands/build-release.ts";
import { repoRoot } from "../api/crown-processes.ts";

/**
 * No Docker engine here, so the image is never built in the tests (issue 42, item 2): what can be checked
 * is that the Dockerfile and docker-compose.yml say what docs/OPERATIONS.md promises. The release folder
 * they copy is itself started from an empty directory by tests/api/release.int.test.ts.
 */

const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}
/** The Dockerfile's instructions, continuation lines joined, comments dropped, split into its stages. */
const dockerStages = (text: string) => {
  const joined = text
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .join("\n")
    .replace(/\\\n/g, " ");
  const stages: Array<{ from: string; name: string | null; instructions: Instruction[] }> = [];
  for (const line of joined.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const [keyword = "", ...rest] = line.split(/\s+/);
    const args = rest.join(" ");
    if (keyword.toUpperCase() === "FROM") {
      const [image = "", as, name] = args.split(/\s+/);
      stages.push({ from: image, name: as?.toUpperCase() === "AS" ? (name ?? null) : null, instructions: [] });
    } else stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
};

const INSTALLS = /\b(pnpm|npm|yarn|npx|corepack|tsx)\b|apt-get|apk add|pip install/;

describe("Dockerfile", () => {
  const stages = dockerStages(read("Dockerfile"));
  const run = stages.at(-1)!;
  const of = (keyword: string) => run.instructions.filter((i) => i.keyword === keyword);

  test("multi-stage on Debian bookworm slim Node 20; the run stage copies the release folder from the build stage", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.from).toBe("node:20-bookworm-slim");
    const build = stages[0]!;
    expect(build.instructions.some((i) => i.keyword === "RUN" && /pnpm install --frozen-lockfile/.test(i.args))).toBe(true);
    expect(build.instructions.some((i) => i.keyword === "RUN" && /pnpm run build/.test(i.args))).toBe(true);
    const copies = of("COPY").map((i) => i.args);
    expect(copies).toContainEqual(expect.stringMatching(new RegExp(`^--from=${build.name} \\S*/${RELEASE_DIR} `)));
    // Nothing else of the checkout reaches the image.
    expect(copies.filter((c) => !c.startsWith("--from="))).toEqual([]);
  });

  test("ffmpeg and the DejaVu fonts in the run stage; a non-root user; health check on /readyz; SIGTERM; plain node", () => {
    const apt = of("RUN").find((i) => /apt-get install/.test(i.args))?.args ?? "";
    expect(apt).toMatch(/\bffmpeg\b/);
    expect(apt).toMatch(/\bfonts-dejavu-core\b/);
    const user = of("USER").at(-1)?.args;
    expect(user).toBeDefined();
    expect(["root", "0"]).not.toContain(user!.split(":")[0]);
    expect(of("HEALTHCHECK").at(-1)?.args).toMatch(/\/readyz/);
    expect(of("STOPSIGNAL").at(-1)?.args).toBe("SIGTERM");
    const entry = JSON.parse(of("ENTRYPOINT").at(-1)!.args) as string[];
    expect(entry.slice(-2)).toEqual(["node", "crown.mjs"]);
    // The run stage installs only Debian packages while the image is built, never at start.
    for (const i of [...of("ENTRYPOINT"), ...of("CMD")]) expect(i.args).not.toMatch(INSTALLS);
    for (const i of of("RUN")) expect(i.args.replace(/apt-get (update|install[^&]*)/g, "")).not.toMatch(INSTALLS);
  });

  test("every workspace package's manifest is copied before the install (a frozen install needs them all)", () => {
    const install = stages[0]!.instructions.findIndex((i) => i.keyword === "RUN" && /pnpm install/.test(i.args));
    const globs = (parse(read("pnpm-workspace.yaml")) as { packages: string[] }).packages;
    const manifests = globs.flatMap((glob) =>
      glob.endsWith("/*")
        ? readdirSync(path.join(repoRoot, glob.slice(0, -2)))
            .map((dir) => `${glob.slice(0, -2)}/${dir}/package.json`)
            .filter((file) => existsSync(path.join(repoRoot, file)))
        : [`${glob}/package.json`],
    );
    expect(manifests.length).toBeGreaterThan(5);
    // `COPY a b dir/` copies a and b into dir/ under their own names.
    const copied = stages[0]!.instructions.slice(0, install).filter((i) => i.keyword === "COPY").flatMap((i) => {
      const parts = i.args.split(/\s+/);
      const target = parts.at(-1)!.replace(/^\.\/?/, "");
      return parts.slice(0, -1).map((source) => (target ? path.posix.join(target, path.posix.basename(source)) : source));
    });
    for (const manifest of [...manifests, "package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml"]) expect(copied, manifest).toContain(manifest);
  });

  test(".dockerignore keeps installs, builds and data out of the build context", () => {
    const ignored = read(".dockerignore").split("\n").map((l) => l.trim());
    for (const entry of ["**/node_modules", "dist", ".crown-data", ".git"]) expect(ignored).toContain(entry);
  });
});

describe("docker-compose.yml", () => {
  type Service = {
    image?: string;
    build?: unknown;
    command?: string[] | string;
    entrypoint?: unknown;
    environment?: Record<string, string>;
    deploy?: { replicas?: number };
    healthcheck?: { disable?: boolean; test?: unknown };
    volumes?: string[];
    ports?: string[];
  };
  const compose = parse(read("docker-compose.yml"), { merge: true }) as { services: Record<string, Service> };
  const services = compose.services;
  const crown = Object.entries(services).filter(([, s]) => s.image?.startsWith("crown:"));

  test("one image, built once, runs the API (2 replicas), the workers (2 replicas) and the migrations", () => {
    expect(new Set(crown.map(([, s]) => s.image)).size).toBe(1);
    expect(crown.filter(([, s]) => s.build !== undefined)).toHaveLength(1);
    expect(services.api?.deploy?.replicas).toBe(2);
    expect(services.worker?.deploy?.replicas).toBe(2);
    expect(services.api?.command).toEqual(["start"]);
    expect(services.worker?.command).toEqual(["worker"]);
    expect(services.migrate?.command).toEqual(["migrate"]);
    expect(services.api?.environment?.CROWN_WORKER).toBe("off");
    // The API replicas keep the image's /readyz health check; a worker has no HTTP server.
    expect(services.api?.healthcheck?.disable).not.toBe(true);
    expect(services.worker?.healthcheck?.disable).toBe(true);
    // Only the proxy is published: replicas share no host port.
    expect(services.api?.ports).toBeUndefined();
  });

  test("nothing is installed or bind-mounted from the source tree when a container starts", () => {
    for (const [name, s] of crown) {
      expect(JSON.stringify(s.command ?? ""), name).not.toMatch(INSTALLS);
      expect(s.entrypoint, name).toBeUndefined();
      for (const volume of s.volumes ?? []) expect(volume, name).not.toMatch(/^\.\.?\//);
    }
  });

  test("every secret comes from the environment", () => {
    for (const [name, s] of Object.entries(services)) {
      for (const [key, value] of Object.entries(s.environment ?? {})) {
        if (/SECRET|PASSWORD/.test(key)) expect(value, `${name}.${key}`).toMatch(/^\$\{[A-Z_]+(:\?[^}]*)?\}$/);
        // A URL's password too.
        const userinfo = /^[a-z]+:\/\/[^:/@]+:([^@]+)@/.exec(String(value));
        if (userinfo) expect(userinfo[1], `${name}.${key}`).toMatch(/^\$\{[A-Z_]+(:\?[^}]*)?\}$/);
      }
    }
  });

  test("PostgreSQL, MinIO and a reverse proxy in front of the API replicas", () => {
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.minio?.image).toMatch(/^minio\/minio/);
    const proxy = services.proxy!;
    expect(proxy.image).toMatch(/^caddy:/);
    const mounted = proxy.volumes?.find((v) => v.startsWith("./deploy/"))?.split(":")[0];
    expect(mounted).toBeDefined();
    const caddyfile = read(mounted!);
    expect(caddyfile).toMatch(/reverse_proxy/);
    expect(caddyfile).toMatch(/name api\b/);
    expect(caddyfile).toMatch(/port 8080\b/);
  });
});
