/*
 * Type-level tests, checked by `pnpm typecheck` (tsc fails when an expected error disappears): the
 * background loops take a runner that provides every port their use cases need.
 */
import type { Kysely } from "kysely";
import type { BlobStore } from "@crown/core";
import type { Reports } from "@crown/core/report/index";
import type { Database } from "@crown/db";
import type { composeServices } from "./compose.ts";
import { type ChatWorkerPorts, startChatWorker } from "./chat.ts";
import { type RecoveryPorts, startRecovery } from "./recovery.ts";
import { type ReportWorkerPorts, startReportWorker } from "./reports.ts";
import type { Runner } from "./runner.ts";

declare const services: Awaited<ReturnType<typeof composeServices>>;
declare const db: Kysely<Database>;
declare const config: Parameters<typeof startRecovery>[0];
const log = () => undefined;

// The composition's runner provides them all.
export const composed = () => [startReportWorker(db, services.run, log), startRecovery(config, db, services.run, log), startChatWorker(services.run, log)];

declare const withoutQueue: Runner<Exclude<ReportWorkerPorts, Reports>>;
// @ts-expect-error a runner without the reports cannot run the analysis worker
export const worker = () => startReportWorker(db, withoutQueue, log);

declare const withoutBlobs: Runner<Exclude<RecoveryPorts, BlobStore>>;
// @ts-expect-error a runner without the blob store cannot run recovery (it removes abandoned blobs)
export const recovery = () => startRecovery(config, db, withoutBlobs, log);

declare const nothing: Runner<never>;
// @ts-expect-error a runner without the chat ports cannot run the chat worker
export const chat = () => startChatWorker(nothing, log);

// Each loop needs ports at all (an empty requirement would make the checks above vacuous).
export const needsPorts: [ReportWorkerPorts, RecoveryPorts, ChatWorkerPorts] extends [never, never, never] ? never : true = true;
