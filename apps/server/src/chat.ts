import { Effect, Layer } from "effect";
import { Chat, ChatConfig, defaultChatSettings, Live, LiveEvents, LiveFeed } from "@crown/core";
import { makeLiveHub, pgliteNotificationSource, pollingNotificationSource, postgresNotificationSource } from "@crown/db";
import type { ServerConfig } from "./config.ts";
import type { PortsOf, Runner } from "./runner.ts";


/**
 * The live hub of this process: it LISTENs on PostgreSQL (a connection of its own) so that events
 * committed by any process reach the streams open here; on PGlite (one process) it uses PGlite's own
 * LISTEN. Without either it falls back to waking the streams every second.
 */
export const liveHubFor = (database: { url?: string | undefined; pglite?: Parameters<typeof pgliteNotificationSource>[0] | undefined }, log: (line: Record<string, unknown>) => void) =>
  makeLiveHub(
    database.url
      ? postgresNotificationSource(database.url, (msg) => log({ level: "warn", msg }))
      : database.pglite
        ? pgliteNotificationSource(database.pglite)
        : pollingNotificationSource(),
  );

export const chatConfigLayer = (config: Pick<ServerConfig, "chatEmailDelaySeconds">) =>
  Layer.succeed(ChatConfig, { ...defaultChatSettings, emailDelaySeconds: config.chatEmailDelaySeconds });

export const liveFeedLayer = (hub: ReturnType<typeof makeLiveHub>) => Layer.succeed(LiveFeed, hub.feed);

/**
 * Every 30 seconds: queues e-mails of chat messages left unread past the delay (each once, even with several
 * processes doing the same; the job worker sends them), and once an hour drops live events past their retention.
 */
/** The ports the chat worker needs: e-mailing unseen messages, and pruning live events. */
export type ChatWorkerPorts = PortsOf<typeof Chat.mailUnseenMessages> | LiveEvents;

export const startChatWorker = (
  run: Runner<ChatWorkerPorts>,
  log: (line: Record<string, unknown>) => void,
  everyMs = 30_000,
) => {
  let lastPrune = 0;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const mailed = await run(Chat.mailUnseenMessages);
      if (typeof mailed === "number" && mailed > 0) log({ level: "info", msg: `chat: e-mailed ${mailed} unseen message(s)` });
      if (Date.now() - lastPrune > 3600_000) {
        lastPrune = Date.now();
        await run(
          Effect.flatMap(LiveEvents, (l) => l.prune(new Date(Date.now() - Live.LIVE_RETENTION_SECONDS * 1000))),
        );
      }
    } catch (error) {
      log({ level: "error", msg: "chat worker failed", error: String(error).slice(0, 2000) });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  return { stop: async () => clearInterval(timer), tick };
};

