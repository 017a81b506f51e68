import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { Chat, Live } from "@crown/core";

const { AssignRequest, ChatMessageRequest, VisitorMessageRequest } = Chat;
type IncomingImage = Chat.IncomingImage;
import { HttpFailure, ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { takesJson, takesQuery } from "../wire-input.ts";
import { requireCaller } from "../middleware.ts";
import { documented, PAGED_WITH_SIZE } from "../openapi.ts";
import { formBody, jsonBody, pageParam } from "../request.ts";
import { HTTP_MESSAGES } from "../messages.ts";

const tag = "Chat";
const support = "Support inbox";
documented({ method: "get", path: "/chat/token", summary: "A single-use stream ticket (text/plain) for `GET /events?ticket=`, like POST /events/ticket: opens this session's event stream once, within a minute. Also /chat/token/:identifier (the caller's own identifier)", tag, auth: true });
documented({ method: "get", path: "/chat/token/:identifier", summary: "The accounts spec's form of GET /chat/token: the identifier must be the caller's own", tag, auth: true });
documented({ method: "get", path: "/chat/conversation", summary: "The caller's support conversation: newest 50 messages (?before=<message identifier> for older), unread count", tag, auth: true });
documented({ method: "post", path: "/chat/conversation/messages", summary: "Write to support: JSON { text }, or multipart with text and up to 4 images (PNG or JPEG by their bytes, at most 10 MB each)", tag, auth: true, body: ChatMessageRequest });
documented({ method: "post", path: "/chat/conversation/read", summary: "Mark support's messages read (read receipts)", tag, auth: true });
documented({ method: "get", path: "/chat/unread-count", summary: "Unread chat messages of the caller (support: conversations with unread messages)", tag, auth: true });
documented({ method: "post", path: "/chat/messages", summary: "E-mail the unseen messages of the caller's conversation now (each message is e-mailed at most once)", tag, auth: true });
documented({ method: "get", path: "/chat/attachments/:id", summary: "An image of a conversation the caller takes part in", tag, auth: true, response: "binary" });
documented({ method: "post", path: "/chat/visitor/messages", summary: "A visitor (public pages) writes with an e-mail address; the first call answers a visitor token (send it back as X-Visitor-Token). Rate limited. Also POST /visitors", tag, auth: false, body: VisitorMessageRequest });
documented({ method: "post", path: "/visitors", summary: "The accounts spec's visitor call: the same as POST /chat/visitor/messages", tag, auth: false, body: VisitorMessageRequest });
documented({ method: "get", path: "/chat/visitor/conversation", summary: "The visitor's messages since its token was issued (X-Visitor-Token header)", tag, auth: false });
documented({ method: "post", path: "/chat/visitor/read", summary: "The visitor read support's messages (X-Visitor-Token header)", tag, auth: false });
documented({ method: "get", path: "/chat/visitor/attachments/:id", summary: "An image in the visitor's conversation (X-Visitor-Token header or ?token=)", tag, auth: false, response: "binary" });
documented({ method: "get", path: "/support/conversations", summary: "Support inbox (admins, reviewers): conversations by user, unread first; ?page=, status=open|closed|all, mine=1, per_page", query: PAGED_WITH_SIZE, tag: support, auth: true });
documented({ method: "get", path: "/support/conversations/:id", summary: "One conversation (marks the customer's messages read) with the user's babies and latest reports; every read is audited", tag: support, auth: true });
documented({ method: "post", path: "/support/conversations/:id/messages", summary: "Reply (JSON { text } or multipart with images); an unassigned conversation is assigned to whoever answers", tag: support, auth: true, body: ChatMessageRequest });
documented({ method: "post", path: "/support/conversations/:id/assign", summary: "Assign to an admin or reviewer (assignee_identifier; default the caller; \"\" unassigns)", tag: support, auth: true, body: AssignRequest });
documented({ method: "post", path: "/support/conversations/:id/close", summary: "Close the conversation (a new customer message reopens it)", tag: support, auth: true });
documented({ method: "post", path: "/support/conversations/:id/reopen", summary: "Reopen the conversation", tag: support, auth: true });

/** Core's images per message at their size, and room for the text and framing; the domain checks each image. */
const MULTIPART_LIMIT = Chat.CHAT_LIMITS.imagesPerMessage * Chat.CHAT_LIMITS.imageMaxBytes + 2 * 1024 * 1024;
const multipartLimit = bodyLimit({ maxSize: MULTIPART_LIMIT, onError: (c) => c.json({ message: HTTP_MESSAGES.chatTooLarge }, 413) });

/** The text and images of a message: JSON, or multipart with `text` and `images` (or `image`, `images[]`). */
const messageInput = async (c: Context<Env>): Promise<{ body: Record<string, unknown>; images: IncomingImage[] }> => {
  if (!(c.req.header("content-type") ?? "").includes("multipart/form-data")) return { body: await jsonBody(c), images: [] };
  const form = await formBody(c, { all: true });
  const images: IncomingImage[] = [];
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    const values = Array.isArray(value) ? value : [value];
    if (key === "images" || key === "image" || key === "images[]" || key === "attachment" || key === "attachments") {
      for (const v of values) if (v instanceof File && v.size > 0) images.push({ bytes: new Uint8Array(await v.arrayBuffer()), fileName: v.name });
    } else if (typeof values[0] === "string") body[key] = values[0];
  }
  return { body, images };
};

const visitorToken = (c: Context<Env>) => c.req.header("x-visitor-token") ?? c.req.query("token") ?? null;

const binary = (blob: { body: ReadableStream<Uint8Array>; contentType: string; size: number; fileName: string }) =>
  new Response(blob.body, {
    status: 200,
    headers: {
      "content-type": blob.contentType,
      "content-length": String(blob.size),
      "content-disposition": `inline; filename="${blob.fileName.replace(/["\\\r\n]/g, "_")}"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });

const plainToken = async (c: Context<Env>) => {
  const identifier = c.req.param("identifier");
  const caller = c.get("caller");
  // The spec's call names the user: only the caller's own identifier answers.
  if (identifier !== undefined && caller?.user.id !== identifier) throw new HttpFailure(Response.json({ message: "User not found" }, { status: 404 }));
  return c.text(await runUseCase(c, Live.streamTicket), 200, { "cache-control": "no-store" });
};

/** Support chat: the signed-in widget, visitors on public pages, and the support inbox. */
export const chatRoutes = () =>
  new Hono<Env>()
    .get("/chat/token", requireCaller, plainToken)
    .get("/chat/token/:identifier", requireCaller, plainToken)
    .get("/chat/conversation", requireCaller, async (c) => {
      const results = await runUseCase(c, Chat.myConversation(c.req.query("before") ?? null));
      return c.json(ok(Chat.CHAT_MESSAGES.conversation, results), 200);
    })
    .post("/chat/conversation/messages", requireCaller, multipartLimit, async (c) => {
      const { body, images } = await messageInput(c);
      const results = await runUseCase(c, Chat.writeMessage(body, images));
      return c.json(ok(Chat.CHAT_MESSAGES.sent, results), 201);
    })
    .post("/chat/conversation/read", requireCaller, async (c) => {
      const results = await runUseCase(c, Chat.readMyConversation);
      return c.json(ok(Chat.CHAT_MESSAGES.read, results), 200);
    })
    .get("/chat/unread-count", requireCaller, async (c) => {
      const results = await runUseCase(c, Chat.myUnreadCount);
      return c.json(ok(Chat.CHAT_MESSAGES.conversation, results), 200);
    })
    .post("/chat/messages", requireCaller, async (c) => {
      const results = await runUseCase(c, Chat.mailUnseenNow);
      return c.json(ok(Chat.CHAT_MESSAGES.emailed, results), 200);
    })
    .get("/chat/attachments/:id", requireCaller, async (c) => binary(await runUseCase(c, Chat.readAttachment(c.req.param("id")))))
    .post("/chat/visitor/messages", takesJson(VisitorMessageRequest), async (c) => {
      const results = await runUseCase(c, Chat.visitorWrite(await jsonBody(c), visitorToken(c)));
      return c.json(ok(Chat.CHAT_MESSAGES.sent, results), 201);
    })
    // The spec's visitor call (formerly on a separate chat service).
    .post("/visitors", takesJson(VisitorMessageRequest), async (c) => {
      const results = await runUseCase(c, Chat.visitorWrite(await jsonBody(c), visitorToken(c)));
      return c.json(ok(Chat.CHAT_MESSAGES.sent, results), 201);
    })
    .get("/chat/visitor/conversation", async (c) => {
      const results = await runUseCase(c, Chat.visitorConversation(visitorToken(c)));
      return c.json(ok(Chat.CHAT_MESSAGES.conversation, results), 200);
    })
    .post("/chat/visitor/read", async (c) => {
      const results = await runUseCase(c, Chat.visitorRead(visitorToken(c)));
      return c.json(ok(Chat.CHAT_MESSAGES.read, results), 200);
    })
    .get("/chat/visitor/attachments/:id", async (c) => binary(await runUseCase(c, Chat.visitorAttachment(visitorToken(c), c.req.param("id")))))
    .get("/support/conversations", takesQuery<{ page?: number | string; status?: "open" | "closed" | "all"; mine?: number }>(), requireCaller, async (c) => {
      const results = await runUseCase(c, Chat.inbox(pageParam(c), c.req.query()));
      return c.json(ok(Chat.CHAT_MESSAGES.inbox, results), 200);
    })
    .get("/support/conversations/:id", requireCaller, async (c) => {
      const results = await runUseCase(c, Chat.supportConversation(c.req.param("id"), c.req.query("before") ?? null));
      return c.json(ok(Chat.CHAT_MESSAGES.conversation, results), 200);
    })
    .post("/support/conversations/:id/messages", requireCaller, multipartLimit, async (c) => {
      const { body, images } = await messageInput(c);
      const results = await runUseCase(c, Chat.supportReply(c.req.param("id"), body, images));
      return c.json(ok(Chat.CHAT_MESSAGES.sent, results), 201);
    })
    .post("/support/conversations/:id/assign", takesJson(AssignRequest), requireCaller, async (c) => {
      const results = await runUseCase(c, Chat.assign(c.req.param("id"), await jsonBody(c)));
      return c.json(ok(Chat.CHAT_MESSAGES.assigned, results), 200);
    })
    .post("/support/conversations/:id/close", requireCaller, async (c) => {
      const results = await runUseCase(c, Chat.close(c.req.param("id")));
      return c.json(ok(Chat.CHAT_MESSAGES.closed, results), 200);
    })
    .post("/support/conversations/:id/reopen", requireCaller, async (c) => {
      const results = await runUseCase(c, Chat.reopen(c.req.param("id")));
      return c.json(ok(Chat.CHAT_MESSAGES.reopened, results), 200);
    });
