import { Effect, Option } from "effect";
import { type Caller, CurrentUser, OneTimeTokens, Sessions, Users } from "../accounts/model.ts";
import { Unauthenticated } from "../shared/errors.ts";
import { now, Random, Secrets } from "../shared/ports.ts";
import { sessionStillLive } from "./service.ts";

/*
 * EventSource cannot set an Authorization header, so the stream opens with `?ticket=`. A URL ends up
 * in access logs and browser history, so it never carries the session token: a ticket is issued to
 * a signed-in caller, opens the event stream of that session once, within a minute, and is stored
 * only as a digest (ADR 21).
 */
const TICKET_PREFIX = "lt2";
/** How long a ticket may wait before it opens its stream. */
export const STREAM_TICKET_SECONDS = 60;

/**
 * `lt2.<session digest>.<random>`: the session part says which session it opens; the stored digest
 * covers both parts, so neither can be swapped.
 */
const storedDigest = (digestOf: (s: string) => string, sessionDigest: string, secret: string) => digestOf(`stream-ticket|${sessionDigest}|${secret}`);

/** A fresh single-use ticket for the caller's session. */
export const streamTicket = Effect.gen(function* () {
  const { user, session } = yield* CurrentUser;
  const random = yield* Random;
  const secrets = yield* Secrets;
  const at = yield* now;
  const secret = random.secret(32);
  yield* (yield* OneTimeTokens).insert({
    id: random.identifier(),
    userId: user.id,
    purpose: "stream_ticket",
    digest: storedDigest(secrets.digest, session.tokenDigest, secret),
    expiresAt: new Date(at.getTime() + STREAM_TICKET_SECONDS * 1000),
    consumedAt: null,
    createdAt: at,
  });
  return `${TICKET_PREFIX}.${session.tokenDigest}.${secret}`;
});

/** Uses up a ticket and resolves it to its caller, with the same checks as `authenticate` (and the same 401). */
export const authenticateTicket = (ticket: string) =>
  Effect.gen(function* () {
    const unauthenticated = new Unauthenticated({ message: Unauthenticated.default });
    const parts = ticket.split(".");
    const [prefix, sessionDigest, secret] = parts;
    if (parts.length !== 3 || prefix !== TICKET_PREFIX || !sessionDigest || !secret) return yield* unauthenticated;
    const secrets = yield* Secrets;
    const consumed = yield* (yield* OneTimeTokens).consume("stream_ticket", storedDigest(secrets.digest, sessionDigest, secret), yield* now);
    if (Option.isNone(consumed)) return yield* unauthenticated;
    const found = yield* (yield* Sessions).findByDigest(sessionDigest);
    if (Option.isNone(found) || found.value.userId !== consumed.value.userId) return yield* unauthenticated;
    const user = yield* (yield* Users).findById(found.value.userId);
    if (Option.isNone(user)) return yield* unauthenticated;
    const caller: Caller = { user: user.value, session: found.value };
    if (!(yield* sessionStillLive(caller))) return yield* unauthenticated;
    return caller;
  });

export const isTicket = (text: string) => text.startsWith(`${TICKET_PREFIX}.`);
