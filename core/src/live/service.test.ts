import { Effect, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { signOut } from "../accounts/service.ts";
import { CurrentUser } from "../accounts/model.ts";
import { signedIn } from "../testing/accounts.ts";
import { makeTestWorld } from "../testing/memory.ts";
import { aParent, aPhysician } from "../testing/mothers.ts";
import { type LiveEvent, LiveEvents, type LiveEventsPort } from "../shared/live-events.ts";
import { authenticateTicket, isTicket, publish, sessionStillLive, STREAM_TICKET_SECONDS, streamStart, streamTicket } from "./service.ts";

/** LiveEvents in memory: enough to check what the use cases ask of it. */
const memoryLive = () => {
  const events: LiveEvent[] = [];
  const ended: string[] = [];
  const port: LiveEventsPort = {
    append: (userId, type, data, at) =>
      Effect.sync(() => {
        const id = events.filter((e) => e.userId === userId).length + 1;
        events.push({ id, userId, type, data, createdAt: at });
      }),
    after: (userId, afterId, limit) => Effect.sync(() => events.filter((e) => e.userId === userId && e.id > afterId).slice(0, limit)),
    latestId: (userId) => Effect.sync(() => events.filter((e) => e.userId === userId).length),
    sessionEnded: (id) => Effect.sync(() => void ended.push(id)),
    prune: () => Effect.succeed(0),
  };
  return { events, ended, layer: Layer.succeed(LiveEvents, port) };
};

describe("live events: use cases", () => {
  it("publish does nothing without a LiveEvents layer, and appends with one", async () => {
    const live = memoryLive();
    await Effect.runPromise(publish("u1", "chat.unread", { count: 1 }));
    await Effect.runPromise(Effect.provide(publish("u1", "chat.unread", { count: 2 }), live.layer));
    expect(live.events.map((e) => [e.userId, e.id, e.data.count])).toEqual([["u1", 1, 2]]);
  });

  it("a stream starts after Last-Event-ID when it is known, else after the newest event", async () => {
    const world = makeTestWorld();
    const { caller } = await signedIn(world, aParent());
    const live = memoryLive();
    for (let i = 0; i < 3; i++) await Effect.runPromise(Effect.provide(publish(caller.user.id, "chat.unread", { count: i }), live.layer));
    const start = (id: string | null) => Effect.runPromise(streamStart(id).pipe(Effect.provide(live.layer), Effect.provideService(CurrentUser, caller)));
    expect(await start("1")).toBe(1);
    expect(await start(" 2 ")).toBe(2);
    expect(await start(null)).toBe(3);
    // Garbage, or an id from the future (a reset database): from now, never silence.
    expect(await start("abc")).toBe(3);
    expect(await start("99")).toBe(3);
    expect(await start("-1")).toBe(3);
  });

  it("a stream ticket opens its session's stream once, within a minute, only while the session lives, and cannot be forged", async () => {
    const world = makeTestWorld();
    const { caller, token } = await signedIn(world, aParent());
    const ticket = await world.runAs(caller, streamTicket);
    expect(isTicket(ticket)).toBe(true);
    expect(ticket).not.toContain(token);
    const forged = await world.runAs(caller, streamTicket);
    expect((await world.failure(authenticateTicket(`${forged.slice(0, -3)}abc`)))._tag).toBe("Unauthenticated");
    expect((await world.run(authenticateTicket(ticket))).user.id).toBe(caller.user.id);
    expect((await world.failure(authenticateTicket(ticket)))._tag).toBe("Unauthenticated");
    expect((await world.failure(authenticateTicket(token)))._tag).toBe("Unauthenticated");
    const late = await world.runAs(caller, streamTicket);
    world.clock.advance(STREAM_TICKET_SECONDS + 1);
    expect((await world.failure(authenticateTicket(late)))._tag).toBe("Unauthenticated");
    const orphan = await world.runAs(caller, streamTicket);
    await world.runAs(caller, signOut);
    expect((await world.failure(authenticateTicket(orphan)))._tag).toBe("Unauthenticated");
  });

  it("the session check does not count as activity: an idle physician's stream ends at the idle limit", async () => {
    const world = makeTestWorld();
    const { caller } = await signedIn(world, aPhysician());
    world.clock.advance(29 * 60);
    expect(await world.run(sessionStillLive(caller))).toBe(true);
    world.clock.advance(2 * 60);
    expect(await world.run(sessionStillLive(caller))).toBe(false);
  });

  it("signing out tells the live streams of that session", async () => {
    const world = makeTestWorld();
    const { caller } = await signedIn(world, aParent());
    const live = memoryLive();
    await Effect.runPromise(Effect.provide(signOut.pipe(Effect.provideService(CurrentUser, caller)), Layer.merge(world.layer, live.layer)));
    expect(live.ended).toEqual([caller.session.id]);
  });
});
