import { parseArgs } from "node:util";
import { Cause, Effect, Runtime } from "effect";
import { Accounts, Onboarding, type UserType, USER_TYPES } from "@crown/core";
import { readConfig } from "./config.ts";
import { composeServices, repoRoot } from "./compose.ts";
import { startServer } from "./start.ts";
import { existsSync } from "node:fs";
import path from "node:path";
import { exportReviewedSet, printReviewedSetStats } from "./commands/dataset.ts";
import { evaluateReviewed, evaluateSet } from "./commands/evaluate.ts";
import { DEFAULT_MODEL_PATH } from "./paths.ts";
import { loadModel, type PipelineModel } from "./reports.ts";
import { DEMO_REFUSED, seedDemo } from "./seed.ts";

const usage = `Usage: pnpm crown <command>

  build [--force]               build the web portal and kiosk unless they are up to date (content hash),
                                with brotli and gzip copies of every compressible file
  build:release [--force]       the web build, then the release folder dist/release that runs with plain
                                node (docs/OPERATIONS.md), unless it is up to date
  start                         serve the API, the web portal and the kiosk (PORT, CROWN_DATA_DIR, DATABASE_URL, ...)
  migrate                       apply database migrations
  migrate --list                every migration this release knows, with when it was applied
  migrate --to <name>           migrate up or down to <name> (down: before starting an older release)
  user:create --role <role> --email <e> --password <p> [--first-name F] [--last-name L]
                                create an Active, verified user (roles: ${USER_TYPES.join(", ")})
  user:approve <email>          approve an account waiting for approval
  seed:demo                     create demo accounts and data for a first look (embedded database only;
                                passwords printed and kept in $CROWN_DATA_DIR/demo-accounts.json)
  worker                        run the background job worker alone (analysis), for scale-out
  storage:backup <dir>          copy every object of the S3 bucket (S3_*) into <dir>, with a manifest of
                                sizes, SHA-256 and content types; a folder holding an earlier backup gets
                                only what it lacks (docs/OPERATIONS.md)
  storage:restore <dir>         put a storage:backup folder's objects into the S3 bucket (S3_*), after
                                checking every file against its manifest
  analyze <image or video>... [--json]
                                measure photos or videos as the server would
  dataset:export --out DIR      write the reviewed set (consented, reviewed photos without EXIF; truth.json,
                                manifest.json) in the format models/head-contour evaluates on
  dataset:stats                 the reviewed set's counts, consent choices and the sets exported
  model:evaluate [--model FILE] [--set reviewed|DIR]
                                the shipped model (or a candidate) against the reviewers: verdicts, CI/CVAI MAE,
                                share off by more than 3, per reason; DIR: any set in truth.json format
  model:shadow FILE             install a candidate .onnx (its model.json beside it) as the shadow model: checked,
                                stored with its checksum; every new report's photos are measured by it too, apart
  model:promote                 make the shadow model the shipped model (the shipped one kept for model:rollback)
  model:rollback                go back to the model shipped before the last promotion
  model:list                    the installed models and their roles
`;

const fail = (message: string): number => {
  process.stderr.write(`${message}\n`);
  return 1;
};

/** The account and database commands analyse nothing: they skip loading the head-contour model (seconds of start-up). */
const NO_MODEL = { model: null, analyze: {}, problem: "not loaded by this command" } as const;

const withServices = async <A>(fn: (services: Awaited<ReturnType<typeof composeServices>>) => Promise<A>, model: PipelineModel = NO_MODEL): Promise<A> => {
  const services = await composeServices(readConfig(), undefined, model);
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
};

const describeError = (error: unknown): string => {
  // A failed effect arrives wrapped in a FiberFailure: tell the domain error itself, not its JSON.
  const e = (Runtime.isFiberFailure(error) ? Cause.squash(error[Runtime.FiberFailureCauseId]) : error) as { message?: string; errors?: Record<string, string[]> };
  if (e?.errors) return Object.entries(e.errors).map(([field, messages]) => `${field}: ${messages.join(", ")}`).join("\n");
  return e?.message ?? String(error);
};

export const main = async (argv: string[]): Promise<number> => {
  const [command, ...rest] = argv;
  switch (command) {
    case "build":
    case "build:release": {
      const { values } = parseArgs({ args: rest, options: { force: { type: "boolean", default: false } } });
      // A release has its builds and no build tools: they run in a checkout.
      if (!existsSync(path.join(repoRoot, "pnpm-lock.yaml"))) return fail("This is a release folder, already built: build a new one from a checkout with `pnpm build`.");
      if (command === "build") {
        const { buildWeb } = await import("./commands/build-web.ts");
        await buildWeb({ root: repoRoot, force: values.force ?? false });
      } else {
        const { buildRelease } = await import("./commands/build-release.ts");
        await buildRelease({ root: repoRoot, force: values.force ?? false });
      }
      return 0;
    }
    case "start":
      await startServer(readConfig());
      return 0;
    case "dataset:export": {
      const { values } = parseArgs({ args: rest, options: { out: { type: "string" } } });
      if (!values.out) return fail("--out DIR is required");
      return withServices((s) => exportReviewedSet(s, values.out!, (line) => process.stdout.write(line)));
    }
    case "model:evaluate": {
      const { values } = parseArgs({ args: rest, options: { model: { type: "string" }, set: { type: "string", default: "reviewed" } } });
      const write = (line: string) => void process.stdout.write(line);
      if (values.set && values.set !== "reviewed") {
        await evaluateSet(values.set, values.model ?? process.env.CROWN_MODEL ?? DEFAULT_MODEL_PATH, write);
        return 0;
      }
      return withServices(async (s) => {
        await evaluateReviewed(s, values.model ?? null, write);
        return 0;
      });
    }
    case "model:shadow":
    case "model:promote":
    case "model:rollback":
    case "model:list": {
      const commands = await import("./commands/model.ts");
      const write = (line: string) => void process.stdout.write(line);
      const file = rest[0];
      if (command === "model:shadow" && !file) return fail("Usage: pnpm crown model:shadow FILE (the .onnx, with its model.json beside it)");
      try {
        if (command === "model:shadow") return await withServices((s) => commands.installShadowCommand(s, path.resolve(file!), write));
        // The release's own model is named when a promotion first replaces it: loaded for that.
        if (command === "model:promote") return await withServices((s) => commands.promoteCommand(s, write), await loadModel());
        if (command === "model:rollback") return await withServices((s) => commands.rollbackCommand(s, write));
        return await withServices((s) => commands.listModelsCommand(s, write));
      } catch (error) {
        return fail(describeError(error));
      }
    }
    case "dataset:stats":
      return withServices((s) => printReviewedSetStats(s, (line) => process.stdout.write(line)));
    case "migrate": {
      const { values } = parseArgs({ args: rest, options: { to: { type: "string" }, list: { type: "boolean", default: false } } });
      if (!values.to && !values.list) {
        return withServices(async (s) => {
          process.stdout.write(`Database (${s.database.kind}) is at the latest migration.\n`);
          return 0;
        });
      }
      const config = readConfig();
      const { connectDatabase, listMigrations, migrateTo } = await import("@crown/db");
      const database = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
      try {
        if (values.to) {
          const result = await migrateTo(database.db, values.to);
          for (const r of result.results ?? []) process.stdout.write(`${r.direction === "Down" ? "reverted" : "applied"} ${r.migrationName}\n`);
          process.stdout.write(`Database (${database.kind}) is at ${values.to}.\n`);
        } else {
          for (const m of await listMigrations(database.db)) process.stdout.write(`${m.executedAt ? m.executedAt.toISOString() : "pending".padEnd(24)}  ${m.name}\n`);
        }
        return 0;
      } catch (error) {
        return fail(describeError(error));
      } finally {
        await database.close();
      }
    }
    case "user:create": {
      const { values } = parseArgs({
        args: rest,
        options: { role: { type: "string" }, email: { type: "string" }, password: { type: "string" }, "first-name": { type: "string" }, "last-name": { type: "string" } },
      });
      if (!values.role || !(USER_TYPES as readonly string[]).includes(values.role)) return fail(`--role must be one of ${USER_TYPES.join(", ")}`);
      if (!values.email || !values.password) return fail("--email and --password are required");
      return withServices(async (s) => {
        try {
          const user = await s.run(
            Accounts.createVerifiedUser({
              email: values.email!,
              password: values.password!,
              type: values.role as UserType,
              firstName: values["first-name"] ?? "Crown",
              lastName: values["last-name"] ?? values.role!,
            }),
          );
          process.stdout.write(`Created ${user.type} ${user.email} (${user.id}), status ${user.status}.\n`);
          return 0;
        } catch (error) {
          return fail(describeError(error));
        }
      });
    }
    case "user:approve": {
      const email = rest[0];
      if (!email) return fail("Usage: pnpm crown user:approve <email>");
      return withServices(async (s) => {
        try {
          const user = await s.run(
            Effect.flatMap(Accounts.findUserByEmail(email), (found) =>
              // The same approval as the admin API: status, notification and e-mail in one transaction.
              found._tag === "Some" ? Onboarding.approve(found.value.id, null) : Effect.fail({ message: `No account with the e-mail ${email}.` }),
            ),
          );
          process.stdout.write(`Approved ${user.email}: status ${user.status}.\n`);
          return 0;
        } catch (error) {
          return fail(describeError(error));
        }
      });
    }
    case "worker": {
      const { runWorkerCommand } = await import("./commands/worker.ts");
      return runWorkerCommand();
    }
    case "seed:demo":
      if (readConfig().databaseUrl) return fail(DEMO_REFUSED);
      return withServices(async (s) => {
        const accounts = await seedDemo(s, readConfig().dataDir);
        for (const a of accounts) process.stdout.write(`${a.role.padEnd(16)} ${a.email.padEnd(32)} ${a.password}\n`);
        return 0;
      });
    case "storage:backup":
    case "storage:restore": {
      const dir = rest[0];
      if (!dir) return fail(`Usage: crown ${command} <dir>`);
      const { s3SettingsFromEnv, makeS3Client } = await import("@crown/storage");
      const s3 = s3SettingsFromEnv();
      // Files kept under the data directory are backed up with it (a copy of $CROWN_DATA_DIR/blobs).
      if (!s3) return fail(`S3_ENDPOINT is not set: the files are under ${path.join(readConfig().dataDir, "blobs")}; copy that folder instead.`);
      const { backupBucket, restoreBucket } = await import("@crown/storage/backup");
      const say = (line: string) => process.stderr.write(`${line}\n`);
      try {
        const target = path.resolve(dir);
        const r = await (command === "storage:backup" ? backupBucket : restoreBucket)(makeS3Client(s3), s3.bucket, target, say);
        const what = `${r.objects} objects (${(r.bytes / 1e6).toFixed(1)} MB)`;
        process.stdout.write(
          command === "storage:backup"
            ? `Backed up ${what} of bucket ${s3.bucket} into ${target} (${r.transferred} copied this time).\n`
            : `Restored ${what} from ${target} into bucket ${s3.bucket}.\n`,
        );
        return 0;
      } catch (error) {
        return fail(describeError(error));
      }
    }
    case "analyze": {
      const { analyzeCommand } = await import("./commands/analyze.ts");
      return analyzeCommand(rest);
    }
    default:
      process.stdout.write(usage);
      return command === undefined || command === "help" || command === "--help" ? 0 : 1;
  }
};

