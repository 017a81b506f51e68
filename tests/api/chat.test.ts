import { Accounts, Babies, Chat, ChatConfig, defaultChatSettings, NotificationCenter, transaction, type UserType } from "@crown/core";
import { aBaby } from "@crown/core/testing/babies";
import { Effect } from "effect";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { b64, databaseKinds, PASSWORD, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";
import { flakyMailWorker } from "./mail-worker.ts";
import { type EventReader, readEvents } from "./sse.ts";

const PNG_1x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

interface Account {
  identifier: string;
  email: string;
  token: string;
}

describe.each(await databaseKinds())("chat and live events API on %s", (kind) => {
  let server: TestServer;
  let parent: Account;
  let other: Account;
  let admin: Account;
  let reviewer: Account;
  let mail: Awaited<ReturnType<typeof flakyMailWorker>>;
  const streams: EventReader[] = [];

  /** An Active, verified account of `type`, signed in. */
  const account = async (type: UserType, firstName = "Pat"): Promise<Account> => {
    const email = uniqueEmail(type);
    const user = await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type, firstName, lastName: "Tester" }));
    const signIn = await server.post("/user/sign-in", { email, password: b64(PASSWORD), device_type: "web" });
    expect(signIn.status).toBe(200);
    return { identifier: user.id, email, token: signIn.json.results.token };
  };

  /** Opens `GET /events` (bearer token or ?token=) and reads it. */
  const events = async (options: { token?: string; query?: string; lastEventId?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.lastEventId) headers["last-event-id"] = options.lastEventId;
    const response = await server.app.request(`/api/v1/en/events${options.query ?? ""}`, { headers });
    if (response.status !== 200) return { status: response.status, json: await response.json(), reader: null };
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = readEvents(response);
    streams.push(reader);
    return { status: 200, json: null, reader };
  };

  const say = (who: Account, text: string) => server.post("/chat/conversation/messages", { text }, who.token);

  beforeAll(async () => {
    server = await startTestServer(kind, { CHAT_EMAIL_DELAY_SECONDS: "0" });
    // Unseen-message e-mails are queued as jobs; this worker sends them.
    mail = await flakyMailWorker(server.services.database.db, server.services.run as never);
    parent = await account("parent", "Paula");
    other = await account("parent", "Oscar");
    admin = await account("admin", "Ada");
    reviewer = await account("reviewer", "Rita");
  });
  afterAll(async () => {
    for (const s of streams) await s.close();
    await mail?.worker.stop();
    await server?.close();
  });

  test("every chat and support call needs a session (401), and support calls need an admin or reviewer (403)", async () => {
    const signedIn: Array<[string, string]> = [
      ["GET", "/chat/token"],
      ["GET", `/chat/token/${parent.identifier}`],
      ["GET", "/chat/conversation"],
      ["POST", "/chat/conversation/messages"],
      ["POST", "/chat/conversation/read"],
      ["GET", "/chat/unread-count"],
      ["POST", "/chat/messages"],
      ["GET", "/chat/attachments/x"],
      ["GET", "/support/conversations"],
      ["GET", "/support/conversations/x"],
      ["POST", "/support/conversations/x/messages"],
      ["POST", "/support/conversations/x/assign"],
      ["POST", "/support/conversations/x/close"],
      ["POST", "/support/conversations/x/reopen"],
      ["GET", "/events"],
    ];
    for (const [method, url] of signedIn) {
      const anonymous = await server.call(method, url, { body: method === "POST" ? {} : undefined });
      expect(anonymous.status, `${method} ${url}`).toBe(401);
      const bogus = await server.call(method, url, { body: method === "POST" ? {} : undefined, token: "not-a-session" });
      expect(bogus.status, `${method} ${url} with a bad token`).toBe(401);
    }
    for (const [method, url] of signedIn.filter(([, u]) => u.startsWith("/support/"))) {
      const asParent = await server.call(method, url, { body: method === "POST" ? { text: "hi" } : undefined, token: parent.token });
      expect(asParent.status, `${method} ${url} as a parent`).toBe(403);
    }
    // Support answers from the inbox, not from the customer widget.
    expect((await say(admin, "hello")).status).toBe(403);
  });

  test("a parent writes, support sees it unread first in the inbox, reads it (receipt) and answers; nobody else sees it", async () => {
    const empty = await server.get("/chat/conversation", parent.token);
    expect(empty.status).toBe(200);
    expect(empty.json.results).toMatchObject({ conversation: null, messages: [], unread: 0 });

    const sent = await say(parent, "  How do I take a good photo?  ");
    expect(sent.status).toBe(201);
    expect(sent.json.results.message).toMatchObject({ text: "How do I take a good photo?", side: "customer", read_at: null, author: { kind: "user" } });
    const conversationId = sent.json.results.conversation.identifier as string;
    await say(other, "Another question");

    const inbox = await server.get("/support/conversations", admin.token);
    expect(inbox.status).toBe(200);
    const rows = inbox.json.results.data as Array<Record<string, any>>;
    const mine = rows.find((r) => r.identifier === conversationId)!;
    expect(mine).toMatchObject({ unread: 1, user: { identifier: parent.identifier, email: parent.email }, last_message: { text: "How do I take a good photo?" } });
    // Unread first.
    const firstRead = rows.findIndex((r) => r.unread === 0);
    if (firstRead >= 0) expect(rows.slice(firstRead).every((r) => r.unread === 0)).toBe(true);
    expect(inbox.json.results.unread_conversations).toBeGreaterThanOrEqual(2);

    const opened = await server.get(`/support/conversations/${conversationId}`, admin.token);
    expect(opened.status).toBe(200);
    expect(opened.json.results.messages).toHaveLength(1);
    expect(opened.json.results.context.user).toMatchObject({ identifier: parent.identifier, email: parent.email });
    const afterOpen = await server.get("/chat/conversation", parent.token);
    expect(afterOpen.json.results.messages[0].read_at).not.toBeNull();

    const reply = await server.post(`/support/conversations/${conversationId}/messages`, { text: "Hold the phone above the head." }, admin.token);
    expect(reply.status).toBe(201);
    expect(reply.json.results.message).toMatchObject({ side: "support", author: { kind: "support", name: "Ada (Crown support)" } });
    // Whoever answers an unassigned conversation takes it.
    expect(reply.json.results.conversation.assignee_identifier).toBe(admin.identifier);

    const mineNow = await server.get("/chat/conversation", parent.token);
    expect(mineNow.json.results.unread).toBe(1);
    expect((await server.get("/chat/unread-count", parent.token)).json.results.count).toBe(1);
    const read = await server.post("/chat/conversation/read", {}, parent.token);
    expect(read.status).toBe(200);
    expect(read.json.results.updated).toBe(1);
    const supportView = await server.get(`/support/conversations/${conversationId}`, reviewer.token);
    expect(supportView.json.results.messages.at(-1).read_at).not.toBeNull();

    // The other parent sees only their own conversation, and cannot reach this one by any door.
    const theirs = await server.get("/chat/conversation", other.token);
    expect(theirs.json.results.messages.map((m: any) => m.text)).toEqual(["Another question"]);
    expect(theirs.json.results.conversation.identifier).not.toBe(conversationId);
    expect((await server.get(`/support/conversations/${conversationId}`, other.token)).status).toBe(403);
  });

  test("support's context panel shows the user's babies, and every read of it is audited", async () => {
    const babyId = `baby-${Date.now()}`;
    await insertBaby(server, parent.identifier, babyId);
    const conversation = (await server.get("/chat/conversation", parent.token)).json.results.conversation.identifier;
    const before = await auditCount(server, "chat.context_read", parent.identifier);
    const opened = await server.get(`/support/conversations/${conversation}`, reviewer.token);
    expect(opened.status).toBe(200);
    expect(opened.json.results.context.babies).toEqual([expect.objectContaining({ identifier: babyId, name: "Bo Baby", date_of_birth: "2026-09-01" })]);
    expect(Array.isArray(opened.json.results.context.reports)).toBe(true);
    expect(await auditCount(server, "chat.context_read", parent.identifier)).toBe(before + 1);
  });

  test("images are checked by their bytes like uploads, kept at most 10 MB, and reachable only by the conversation's people", async () => {
    const form = new FormData();
    form.set("text", "Here is the photo");
    form.append("images", new Blob([PNG_1x1], { type: "image/png" }), "head.png");
    const sent = await server.call("POST", "/chat/conversation/messages", { form, token: parent.token });
    expect(sent.status).toBe(201);
    const attachment = sent.json.results.message.attachments[0];
    expect(attachment).toMatchObject({ file_name: "head.png", mime: "image/png", size: PNG_1x1.length });

    const own = await server.call("GET", `/chat/attachments/${attachment.identifier}`, { token: parent.token });
    expect(own.status).toBe(200);
    expect(own.response.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await own.response.arrayBuffer())).toEqual(PNG_1x1);
    expect((await server.call("GET", `/chat/attachments/${attachment.identifier}`, { token: admin.token })).status).toBe(200);
    expect((await server.call("GET", `/chat/attachments/${attachment.identifier}`, { token: other.token })).status).toBe(404);

    const fake = new FormData();
    fake.append("images", new Blob([Buffer.from("just text pretending")], { type: "image/png" }), "fake.png");
    const refused = await server.call("POST", "/chat/conversation/messages", { form: fake, token: parent.token });
    expect(refused.status).toBe(422);
    expect(refused.json.errors.images).toEqual(["Only PNG or JPEG images can be attached."]);

    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(PNG_1x1);
    const large = new FormData();
    large.append("images", new Blob([big], { type: "image/png" }), "big.png");
    expect((await server.call("POST", "/chat/conversation/messages", { form: large, token: parent.token })).status).toBe(413);

    const empty = await say(parent, "   ");
    expect(empty.status).toBe(422);
    expect(empty.json.errors.text).toEqual(["Please write a message or attach an image."]);
    expect((await say(parent, "x".repeat(5001))).status).toBe(422);
  });

  test("support assigns (only to admins and reviewers), closes, and a new customer message reopens", async () => {
    const id = (await server.get("/chat/conversation", other.token)).json.results.conversation.identifier;
    const toParent = await server.post(`/support/conversations/${id}/assign`, { assignee_identifier: parent.identifier }, admin.token);
    expect(toParent.status).toBe(422);
    const toReviewer = await server.post(`/support/conversations/${id}/assign`, { assignee_identifier: reviewer.identifier }, admin.token);
    expect(toReviewer.status).toBe(200);
    expect(toReviewer.json.results.assignee_identifier).toBe(reviewer.identifier);
    const mine = await server.get("/support/conversations?mine=1", reviewer.token);
    expect(mine.json.results.data.map((r: any) => r.identifier)).toEqual([id]);
    expect((await server.post("/support/conversations/nope/close", {}, admin.token)).status).toBe(404);

    const closed = await server.post(`/support/conversations/${id}/close`, {}, admin.token);
    expect(closed.json.results.status).toBe("closed");
    const openList = await server.get("/support/conversations", admin.token);
    expect(openList.json.results.data.map((r: any) => r.identifier)).not.toContain(id);
    const closedList = await server.get("/support/conversations?status=closed", admin.token);
    expect(closedList.json.results.data.map((r: any) => r.identifier)).toContain(id);
    expect((await server.get("/support/conversations?status=bogus", admin.token)).status).toBe(422);

    await say(other, "One more thing");
    expect((await server.get("/chat/conversation", other.token)).json.results.conversation.status).toBe("open");
    const reopened = await server.post(`/support/conversations/${id}/close`, {}, admin.token);
    expect(reopened.status).toBe(200);
    expect((await server.post(`/support/conversations/${id}/reopen`, {}, admin.token)).json.results.status).toBe("open");
  });

  test("visitors write with an e-mail address, reach only their own messages, and are rate limited", async () => {
    const email = uniqueEmail("visitor");
    const ip = "203.0.113.7";
    const first = await server.call("POST", "/chat/visitor/messages", { body: { email, name: "Vic", text: "Do you ship to Canada?" }, ip });
    expect(first.status).toBe(201);
    const token = first.json.results.token as string;
    expect(token).toMatch(/\S{20,}/);
    const visitorHeaders = (t: string) => ({ "x-visitor-token": t, "x-forwarded-for": ip });
    const read = async (t: string) => {
      const res = await server.app.request("/api/v1/en/chat/visitor/conversation", { headers: visitorHeaders(t) });
      return { status: res.status, json: (await res.json()) as any };
    };
    expect((await read(token)).json.results.messages.map((m: any) => m.text)).toEqual(["Do you ship to Canada?"]);

    // Knowing the address is not enough: a new visitor with it starts a conversation of its own.
    const second = await server.call("POST", "/chat/visitor/messages", { body: { email, text: "Me again" }, ip: "203.0.113.8" });
    expect(second.json.results.conversation.identifier).not.toBe(first.json.results.conversation.identifier);
    const token2 = second.json.results.token as string;
    expect(token2).not.toBe(token);
    expect((await read(token2)).json.results.messages.map((m: any) => m.text)).toEqual(["Me again"]);
    expect((await read("forged-token")).status).toBe(404);
    // A visitor token is no session.
    expect((await server.get("/chat/conversation", token)).status).toBe(401);
    expect((await server.get("/support/conversations", token)).status).toBe(401);
    // A token writes only into its own address's conversation.
    const crossed = await server.app.request("/api/v1/en/chat/visitor/messages", {
      method: "POST",
      headers: { ...visitorHeaders(token), "content-type": "application/json" },
      body: JSON.stringify({ email: uniqueEmail("someone"), text: "hijack" }),
    });
    expect(crossed.status).toBe(404);

    // Support sees the visitor's conversation and answers; only the visitor's own token reads the answer.
    const inbox = await server.get("/support/conversations", admin.token);
    const row = inbox.json.results.data.find((r: any) => r.identifier === first.json.results.conversation.identifier);
    expect(row).toMatchObject({ user: null, visitor_email: email, visitor_name: "Vic", unread: 1 });
    const opened = await server.get(`/support/conversations/${row.identifier}`, admin.token);
    expect(opened.json.results.context).toBeNull();
    await server.post(`/support/conversations/${row.identifier}/messages`, { text: "Yes, we do." }, admin.token);
    expect((await read(token)).json.results.messages.map((m: any) => m.text)).toEqual(["Do you ship to Canada?", "Yes, we do."]);
    expect((await read(token2)).json.results.messages.map((m: any) => m.text)).toEqual(["Me again"]);
    const receipt = await server.app.request("/api/v1/en/chat/visitor/read", { method: "POST", headers: visitorHeaders(token) });
    expect(((await receipt.json()) as any).results.updated).toBe(1);

    const invalid = await server.call("POST", "/chat/visitor/messages", { body: { email: "nope", text: "hi" }, ip });
    expect(invalid.status).toBe(422);
    expect(invalid.json.errors.email).toEqual(["Email is invalid"]);

    // The spec's POST /visitors is the same call; the address's bucket fills up: 429 with Retry-After.
    const flood = uniqueEmail("flood");
    let last = 0;
    let retryAfter: string | null = null;
    for (let i = 0; i < 25 && last !== 429; i++) {
      const r = await server.call("POST", i === 0 ? "/visitors" : "/chat/visitor/messages", { body: { email: flood, text: `msg ${i}` }, ip: "198.51.100.9" });
      last = r.status;
      retryAfter = r.response.headers.get("retry-after");
    }
    expect(last).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  test("unseen messages are e-mailed on demand (POST /chat/messages) and by the worker after the delay, never twice", async () => {
    const customer = await account("parent", "Mia");
    const sent = await say(customer, "Anyone there?");
    const id = sent.json.results.conversation.identifier;
    await server.post(`/support/conversations/${id}/assign`, { assignee_identifier: reviewer.identifier }, admin.token);
    const mailsTo = async (to: string) => (await server.outbox()).filter((m) => m.to.includes(to));

    // On demand: the customer's unseen message goes to the assignee, once.
    const now = await server.post("/chat/messages", {}, customer.token);
    expect(now.status).toBe(200);
    expect(now.json.results.emailed).toBe(1);
    await mail.worker.idle();
    const toReviewer = await mailsTo(reviewer.email);
    expect(toReviewer.filter((m) => m.text.includes("Anyone there?"))).toHaveLength(1);
    expect((await server.post("/chat/messages", {}, customer.token)).json.results.emailed).toBe(0);

    // Support's reply, left unread, reaches the customer by the worker (delay 0 here), once.
    await server.post(`/support/conversations/${id}/messages`, { text: "Yes! Send us a photo." }, reviewer.token);
    const [a, b] = await Promise.all([server.services.run(mailUnseen()), server.services.run(mailUnseen())]);
    expect(Number(a) + Number(b)).toBeGreaterThanOrEqual(1);
    expect(await server.services.run(mailUnseen())).toBe(0);
    await mail.worker.idle();
    const toCustomer = (await mailsTo(customer.email)).filter((m) => m.text.includes("Yes! Send us a photo."));
    expect(toCustomer).toHaveLength(1);
    expect(toCustomer[0]!.subject).toMatch(/new message from Crown support/);
    // Read messages are never e-mailed.
    await say(customer, "Thanks");
    await server.get(`/support/conversations/${id}`, reviewer.token);
    expect(await server.services.run(mailUnseen())).toBe(0);
  });

  test("an unseen message newer than the configured delay waits; a send the mail server refuses is retried once later, and nobody gets it twice", async () => {
    const customer = await account("parent", "Nina");
    await say(customer, "Is my upload all right?");
    const withDelay = (seconds: number) => server.services.run(Effect.provideService(Chat.mailUnseenMessages, ChatConfig, { ...defaultChatSettings, emailDelaySeconds: seconds }));
    const mailed = async () => (await server.outbox()).filter((m) => m.text.includes("Is my upload all right?"));

    // Written just now: an hour's delay has not passed, nothing is claimed or sent.
    expect(await withDelay(3600)).toBe(0);
    await mail.worker.idle();
    expect(await mailed()).toEqual([]);

    // Past the delay (none): nobody is assigned, so each of the support team gets it; the reviewer's send fails once.
    mail.failNext.add(reviewer.email);
    const attemptsBefore = mail.attempts.length;
    expect(await withDelay(0)).toBe(1);
    await mail.worker.idle();
    const sent = await mailed();
    const perRecipient = new Map<string, number>();
    for (const m of sent) perRecipient.set(m.to, (perRecipient.get(m.to) ?? 0) + 1);
    expect([...perRecipient.keys()].some((to) => to.includes(reviewer.email))).toBe(true);
    expect([...perRecipient.keys()].some((to) => to.includes(admin.email))).toBe(true);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    // The reviewer's mail was tried twice (refused, then sent); everyone else's once.
    const attempts = mail.attempts.slice(attemptsBefore);
    expect(attempts.filter((to) => to === reviewer.email)).toHaveLength(2);
    expect(attempts.length).toBe(perRecipient.size + 1);
    // Claimed once: a later run finds nothing more to send.
    expect(await withDelay(0)).toBe(0);
    await mail.worker.idle();
    expect((await mailed()).length).toBe(sent.length);
  });

  test("GET /chat/token answers a single-use stream ticket as text, for the caller's own identifier only", async () => {
    const plain = await server.call("GET", "/chat/token", { token: parent.token });
    expect(plain.status).toBe(200);
    expect(plain.response.headers.get("content-type")).toContain("text/plain");
    const ticket = await plain.response.text();
    const byId = await server.call("GET", `/chat/token/${parent.identifier}`, { token: parent.token });
    const second = await byId.response.text();
    expect(second).not.toBe(ticket);
    expect((await server.call("GET", `/chat/token/${other.identifier}`, { token: parent.token })).status).toBe(404);
    // The ticket opens the event stream, and nothing else.
    const stream = await events({ query: `?ticket=${encodeURIComponent(ticket)}` });
    expect(stream.status).toBe(200);
    await stream.reader!.take((e) => e.event === "ready");
    await stream.reader!.close();
    expect((await server.get("/chat/conversation", ticket)).status).toBe(401);
    // A tampered ticket is refused.
    expect((await events({ query: `?ticket=${encodeURIComponent(second.slice(0, -2) + "xx")}` })).status).toBe(401);
  });

  test("the stream never takes a session token from the URL; a ticket from POST /events/ticket works once, for a minute", async () => {
    expect((await events({ query: `?token=${encodeURIComponent(parent.token)}` })).status).toBe(401);
    expect((await events({ query: `?ticket=${encodeURIComponent(parent.token)}` })).status).toBe(401);
    expect((await server.post("/events/ticket", {}, null)).status).toBe(401);
    const issued = await server.post("/events/ticket", {}, parent.token);
    expect(issued.status).toBe(200);
    expect(issued.json).toMatchObject({ message: "Stream ticket issued", results: { expires_in: 60 } });
    expect(issued.response.headers.get("cache-control")).toBe("no-store");
    const ticket = issued.json.results.ticket as string;
    expect(ticket).not.toContain(parent.token);
    const first = await events({ query: `?ticket=${encodeURIComponent(ticket)}` });
    expect(first.status).toBe(200);
    await first.reader!.take((e) => e.event === "ready");
    await first.reader!.close();
    // Used once: a replay (a log reader, or the browser's own reconnect) is refused.
    expect((await events({ query: `?ticket=${encodeURIComponent(ticket)}` })).status).toBe(401);
    // Unused for over a minute: expired.
    const stale = (await server.post("/events/ticket", {}, parent.token)).json.results.ticket as string;
    await sql`update one_time_tokens set expires_at = now() - interval '1 second' where purpose = 'stream_ticket' and consumed_at is null`.execute(server.services.database.db);
    expect((await events({ query: `?ticket=${encodeURIComponent(stale)}` })).status).toBe(401);
    // A ticket of a signed-out session is refused.
    const session = await account("parent", "Sid");
    const orphan = (await server.post("/events/ticket", {}, session.token)).json.results.ticket as string;
    expect((await server.get("/user/sign-out", session.token)).status).toBe(200);
    expect((await events({ query: `?ticket=${encodeURIComponent(orphan)}` })).status).toBe(401);
  });

  test("the stream carries chat messages, receipts and bell counts to the right users only, and resumes after Last-Event-ID", async () => {
    const mum = await account("parent", "Mona");
    const mumTab = (await events({ token: mum.token })).reader!;
    const ready = await mumTab.take((e) => e.event === "ready");
    expect(ready.data).toMatchObject({ chat_unread: 0, notifications_unread: 0 });
    const supportTab = (await events({ token: admin.token })).reader!;
    await supportTab.take((e) => e.event === "ready");
    const bystander = (await events({ token: other.token })).reader!;
    await bystander.take((e) => e.event === "ready");

    const sent = await say(mum, "Live hello");
    const id = sent.json.results.conversation.identifier;
    const heard = await supportTab.take((e) => e.event === "chat.message" && e.data.message.text === "Live hello");
    expect(heard.data.conversation.identifier).toBe(id);
    expect((await supportTab.take((e) => e.event === "chat.unread")).data.count).toBeGreaterThanOrEqual(1);
    const own = await mumTab.take((e) => e.event === "chat.message");
    expect(own.data.message.text).toBe("Live hello");

    // Opening in the inbox marks Mum's message read: a receipt.
    await server.get(`/support/conversations/${id}`, admin.token);
    expect((await mumTab.take((e) => e.event === "chat.read")).data).toMatchObject({ conversation_identifier: id, reader: "support" });
    await server.post(`/support/conversations/${id}/messages`, { text: "Live answer" }, admin.token);
    const answer = await mumTab.take((e) => e.event === "chat.message" && e.data.message.text === "Live answer");
    expect(answer.id).toMatch(/^\d+$/);
    expect((await mumTab.take((e) => e.event === "chat.unread")).data.count).toBe(1);

    // The bell: a notification written in a transaction is heard when it commits.
    await server.services.run(transaction(NotificationCenter.notify(mum.identifier, "report_published", "reportPublished", { baby: "Bo" }, null)));
    const bell = await mumTab.take((e) => e.event === "notifications.count");
    expect(bell.data).toMatchObject({ count: 1, kind: "report_published" });

    // The tab drops; events happen meanwhile; it comes back with Last-Event-ID and gets exactly those.
    const lastSeen = bell.id!;
    await mumTab.close();
    await server.post(`/support/conversations/${id}/messages`, { text: "While you were away 1" }, admin.token);
    await server.post(`/support/conversations/${id}/messages`, { text: "While you were away 2" }, admin.token);
    const back = (await events({ token: mum.token, lastEventId: lastSeen })).reader!;
    await back.take((e) => e.event === "ready");
    const missed1 = await back.take((e) => e.event === "chat.message");
    const missed2 = await back.take((e) => e.event === "chat.message");
    expect([missed1.data.message.text, missed2.data.message.text]).toEqual(["While you were away 1", "While you were away 2"]);
    expect(Number(missed1.id)).toBeGreaterThan(Number(lastSeen));
    await server.post(`/support/conversations/${id}/messages`, { text: "Now live again" }, admin.token);
    expect((await back.take((e) => e.event === "chat.message")).data.message.text).toBe("Now live again");
    const ids = back.events.filter((e) => e.id !== null).map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toBe(Number(lastSeen) + 1);

    // Nothing of Mum's reached the other parent.
    expect(bystander.events.filter((e) => e.event !== "ready")).toEqual([]);
    await back.close();
  });

  test("a stream ends when its session is signed out", async () => {
    const dad = await account("parent", "Dan");
    const tab = (await events({ token: dad.token })).reader!;
    await tab.take((e) => e.event === "ready");
    expect((await server.get("/user/sign-out", dad.token)).status).toBe(200);
    await tab.take((e) => e.event === "session_ended", 5000);
    await tab.waitEnd(5000);
    expect((await events({ token: dad.token })).status).toBe(401);
  });
});

const insertBaby = async (server: TestServer, parentId: string, id: string) => {
  await server.services.run(
    Effect.flatMap(Babies, (babies) =>
      babies.insert(aBaby({ id, parentId, physicianId: null, firstName: "Bo", lastName: "Baby", dateOfBirth: "2026-09-01", gender: null, createdBy: parentId })),
    ) as never,
  );
};

const mailUnseen = () => Chat.mailUnseenMessages;

const auditCount = async (server: TestServer, action: string, subject: string) => {
  const row = await sql<{ n: number }>`select count(*)::int as n from audit_events where action = ${action} and subject_id = ${subject}`.execute(server.services.database.db);
  return Number(row.rows[0]!.n);
};
