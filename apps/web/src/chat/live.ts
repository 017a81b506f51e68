import { useEffect, useRef, useState } from "react";
import { addressOf } from "@crown/client/extras";
import { ApiError, crown } from "../api/crown.ts";
import { sessionActor } from "../session/store.ts";
import { mustSetUpSecondFactor, mustSignBaa } from "../session/home.ts";

/**
 * The tab's one live connection: an EventSource on `GET /events`. EventSource cannot send an
 * Authorization header, and a URL must never carry the session token, so it opens with a
 * single-use stream ticket from `POST /events/ticket` (good once, for a minute). A ticket does not
 * survive the browser's own reconnect, so a dropped stream is reopened here with a fresh ticket,
 * passing the last id as `?last_event_id=`, so no event is lost or repeated.
 */

export type LiveEventName =
  | "ready"
  | "chat.message"
  | "chat.read"
  | "chat.unread"
  | "chat.conversation"
  | "notifications.count"
  | "report.status"
  | "session_ended";

type Handler = (data: any) => void;

const EVENT_NAMES: ReadonlyArray<LiveEventName> = ["ready", "chat.message", "chat.read", "chat.unread", "chat.conversation", "notifications.count", "report.status", "session_ended"];

const handlers = new Map<LiveEventName, Set<Handler>>();
let source: EventSource | null = null;
let lastEventId: string | null = null;
let token: string | null = null;
let retry: number | null = null;
let attempt = 0;
/** The session token the server refused a ticket for: never asked again (issue 22, item 13: it was asked once per subscriber). */
let refused: string | null = null;
/** The open() whose ticket is on its way; subscribers arriving meanwhile wait for it rather than ask again. */
let opening: number | null = null;
/** The latest `ready` snapshot, for components that mount after it arrived. */
let snapshot: { chat_unread: number; notifications_unread: number } | null = null;

const emit = (name: LiveEventName, data: unknown) => {
  for (const h of [...(handlers.get(name) ?? [])]) {
    try {
      h(data);
    } catch (error) {
      console.error("live event handler failed", error);
    }
  }
};

const stop = () => {
  generation++;
  if (retry !== null) window.clearTimeout(retry);
  retry = null;
  source?.close();
  source = null;
};

/** Each open() call gets a number; only the newest may create the EventSource (no leaked connections). */
let generation = 0;

const open = async () => {
  stop();
  const mine = ++generation;
  const current = token;
  if (!current || current === refused) return;
  // Before the BAA and two-step sign-in the server refuses the stream (it carries patients' events, issue 44).
  const session = sessionActor.getSnapshot().context.session;
  if (session && (mustSignBaa(session) || mustSetUpSecondFactor(session))) return;
  let ticket: string;
  opening = mine;
  try {
    ticket = (await crown.call((api) => api.events.ticket.$post(), { token: current, keepSessionOn401: true, quiet: true })).results.ticket;
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus === 401) {
      refused = current;
      sessionGone();
      return;
    }
    schedule();
    return;
  } finally {
    if (opening === mine) opening = null;
  }
  // A newer open() or a sign-out happened while the ticket was on its way: this one must not open a stream
  // (an unclosed EventSource holds one of the browser's six connections to the host for good).
  if (token !== current || mine !== generation) return;
  source?.close();
  // An EventSource sends no headers: the single-use ticket goes in the address (ADR 21).
  const address = addressOf(crown, (api) => api.events);
  address.searchParams.set("ticket", ticket);
  if (lastEventId) address.searchParams.set("last_event_id", lastEventId);
  const es = new EventSource(address.href);
  source = es;
  for (const name of EVENT_NAMES) {
    es.addEventListener(name, (event) => {
      const message = event as MessageEvent<string>;
      if (message.lastEventId) lastEventId = message.lastEventId;
      let data: unknown = message.data;
      try {
        data = JSON.parse(message.data);
      } catch {
        // plain text
      }
      if (name === "ready") {
        attempt = 0;
        snapshot = data as typeof snapshot;
      }
      if (name === "session_ended") {
        stop();
        sessionGone();
      }
      emit(name, data);
    });
  }
  es.onerror = () => {
    // The browser's own retry would reuse the spent ticket: close it and reopen with a fresh one.
    if (source !== es) return;
    es.close();
    schedule();
  };
};

/**
 * The server says the session ended. Usually the user signed out in this tab (the sign-out flow is
 * already running and shows its own message), so nothing is said here; if the tab still holds the
 * token a second later, one ordinary call lets the app's 401 handling sign out with the server's message.
 */
const sessionGone = () => {
  const at = token;
  window.setTimeout(() => {
    if (token === null || token !== at || sessionActor.getSnapshot().context.session?.token !== at) return;
    void crown.call((api) => api.chat["unread-count"].$get(), { quiet: true }).catch(() => undefined);
  }, 1000);
};

const schedule = () => {
  if (retry !== null || !token) return;
  const delay = Math.min(30_000, 1000 * 2 ** Math.min(attempt++, 5));
  retry = window.setTimeout(() => {
    retry = null;
    void open();
  }, delay);
};

/** Follows the session: opens the stream when signed in, closes it on sign-out. */
const follow = (next: string | null) => {
  if (next === token) return;
  token = next;
  lastEventId = null;
  snapshot = null;
  attempt = 0;
  if (next && handlers.size > 0) void open();
  else stop();
};
sessionActor.subscribe((s) => follow(s.context.session?.token ?? null));

const subscribe = (name: LiveEventName, handler: Handler) => {
  let set = handlers.get(name);
  if (!set) handlers.set(name, (set = new Set()));
  set.add(handler);
  if (!source && retry === null && opening === null) {
    token = sessionActor.getSnapshot().context.session?.token ?? null;
    if (token) void open();
  }
  return () => {
    set.delete(handler);
    if (set.size === 0) handlers.delete(name);
    if (handlers.size === 0) stop();
  };
};

/** Calls `handler` for every live event `name` while the component is mounted. */
export const useLiveEvent = (name: LiveEventName, handler: Handler) => {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => subscribe(name, (data) => ref.current(data)), [name]);
};

/** The caller's unread chat count (support: conversations with unread messages), kept live. */
export const useUnreadChatCount = (): number => {
  const [count, setCount] = useState(snapshot?.chat_unread ?? 0);
  useLiveEvent("ready", (d) => setCount(Number(d?.chat_unread ?? 0)));
  useLiveEvent("chat.unread", (d) => setCount(Number(d?.count ?? 0)));
  return count;
};

/**
 * Keeps the bell's unread count (session machine `lists.notificationCount`) live: mount it once on
 * the signed-in pages (the header's bell does). The count is read once per (re)connect, from the
 * stream's `ready` event, and then follows `notifications.count`; nothing polls.
 */
export const useLiveBellCount = () => {
  const set = (count: number) => sessionActor.send({ type: "LISTS", patch: { notificationCount: count } });
  useEffect(() => {
    // Mounted after this connection's `ready` arrived (e.g. a new layout): take its count.
    if (snapshot) set(Number(snapshot.notifications_unread ?? 0));
  }, []);
  useLiveEvent("ready", (d) => set(Number(d?.notifications_unread ?? 0)));
  useLiveEvent("notifications.count", (d) => set(Number(d?.count ?? 0)));
};
