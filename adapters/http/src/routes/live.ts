import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { Effect } from "effect";
import { Accounts, type Caller, Chat, CurrentUser, Live, LiveFeed } from "@crown/core";
import { type HttpPorts, ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { documented } from "../openapi.ts";
import { requireCaller } from "../middleware.ts";
import { bearerToken } from "../request.ts";
import { HTTP_MESSAGES } from "../messages.ts";
import { translate } from "../i18n.ts";

documented({
  method: "get",
  path: "/events",
  summary:
    "Server-Sent Events for this tab: chat.message, chat.read, chat.unread, chat.conversation, notifications.count, report.status (each with an id), after a first `ready` event with the counts. Authenticated by the bearer token, or ?ticket= (a single-use stream ticket from POST /events/ticket, valid for a minute) since EventSource cannot set headers; a session token is never taken from the URL. Resumes after Last-Event-ID (header, or ?last_event_id=) without losing or repeating an event; ends when the session ends.",
  tag: "Live",
  auth: true,
  response: "event-stream",
});

documented({
  method: "post",
  path: "/events/ticket",
  summary: "A single-use stream ticket for GET /events?ticket= (results: ticket, expires_in seconds); it opens this session's stream once",
  tag: "Live",
  auth: true,
});

export const TICKET_MESSAGE = "Stream ticket issued";

export interface LiveRouteOptions {
  /** Seconds between session checks and keep-alives (default 15). */
  readonly checkSeconds?: number;
}

/** `GET /events`: one stream per signed-in tab. */
export const liveRoutes = (options: LiveRouteOptions = {}) =>
  new Hono<Env>()
    .post("/events/ticket", requireCaller, async (c) =>
      c.json(ok(TICKET_MESSAGE, { ticket: await runUseCase(c, Live.streamTicket), expires_in: Live.STREAM_TICKET_SECONDS }), 200),
    )
    .get("/events", async (c) => {
    // A header carries the session token; a URL only ever a ticket (URLs end up in logs).
    const header = bearerToken(c);
    const ticket = c.req.query("ticket");
    const caller: Caller = await runUseCase(c, header === null && ticket !== undefined ? Live.authenticateTicket(ticket) : Accounts.authenticate(header));
    // A session still to set up its required second factor hears nothing of any patient (issue 44).
    await runUseCase(c, Accounts.admitCaller(caller, { duringSetup: false }));
    c.set("caller", caller);
    const runtime = c.get("runtime");
    const run = <A, R extends HttpPorts | CurrentUser>(effect: Effect.Effect<A, never, R>): Promise<A> => runtime.runPromise(Effect.provideService(effect, CurrentUser, caller));
    let cursor = await runUseCase(c, Live.streamStart(c.req.header("last-event-id") ?? c.req.query("last_event_id") ?? null));
    const checkMs = (options.checkSeconds ?? Live.LIVE_SESSION_CHECK_SECONDS) * 1000;
    c.header("x-accel-buffering", "no");

    return streamSSE(
      c,
      async (stream) => {
        let closed = false;
        let woken = false;
        let ended = false;
        let resume: (() => void) | null = null;
        const signal = () => {
          woken = true;
          resume?.();
        };
        const unsubscribe = await run(
          Effect.flatMap(LiveFeed, (feed) =>
            feed.subscribe(caller.user.id, caller.session.id, {
              wake: signal,
              ended: () => {
                ended = true;
                signal();
              },
            }),
          ),
        );
        stream.onAbort(() => {
          closed = true;
          signal();
        });
        try {
          const snapshot = await run(Chat.liveSnapshot);
          await stream.writeSSE({ event: "ready", data: JSON.stringify({ last_event_id: cursor, ...snapshot }), retry: 3000 });
          let lastCheck = Date.now();
          while (!closed && !ended) {
            // Everything committed after the cursor, in order; subscribing first means nothing is missed.
            for (;;) {
              const events = await run(Live.eventsAfter(cursor));
              for (const event of events) {
                await stream.writeSSE({ id: String(event.id), event: event.type, data: JSON.stringify(event.data) });
                cursor = event.id;
              }
              if (events.length < Live.LIVE_BATCH || closed) break;
            }
            if (!woken) {
              await new Promise<void>((resolve) => {
                const timer = setTimeout(resolve, Math.max(0, checkMs - (Date.now() - lastCheck)));
                resume = () => {
                  clearTimeout(timer);
                  resolve();
                };
              });
              resume = null;
            }
            woken = false;
            if (closed || ended) break;
            if (Date.now() - lastCheck >= checkMs) {
              lastCheck = Date.now();
              if (!(await run(Live.sessionStillLive(caller)))) {
                ended = true;
                break;
              }
              await stream.write(": keep-alive\n\n");
            }
          }
          if (ended && !closed) await stream.writeSSE({ event: "session_ended", data: JSON.stringify({ message: translate(HTTP_MESSAGES.sessionEnded, c.get("language")) }) });
        } finally {
          unsubscribe();
        }
      },
      async () => {
        // The client went away mid-write: nothing to answer.
      },
    );
  });
