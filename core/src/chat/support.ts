import { Effect, Option } from "effect";
import { Users } from "../accounts/model.ts";
import { isActive } from "../accounts/lifecycle.ts";
import { publish, publishToAll } from "../live/service.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { audit, now, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { conversationForSupport, requireSupport } from "./access.ts";
import { writeInto } from "./delivery.ts";
import { type Conversation, Conversations } from "./model.ts";
import { isSupport } from "./policy.ts";
import { presentConversation, presentOne } from "./present.ts";
import { AssignRequest, ChatMessageRequest, CHAT_MESSAGES, type IncomingImage } from "./requests.ts";

/* Support answers, assigns, closes and reopens a conversation. */

export const supportReply = (id: string, input: unknown, images: ReadonlyArray<IncomingImage> = []) =>
  Effect.gen(function* () {
    const caller = yield* requireSupport;
    const { text } = yield* validate(ChatMessageRequest, input);
    const conversation = yield* conversationForSupport(id);
    const { conversation: updated, message } = yield* writeInto(conversation, { kind: "support", id: caller.user.id }, text, images);
    // Nobody assigned yet: whoever answers takes it.
    if (updated.assigneeId === null) yield* assignTo(updated, caller.user.id, caller.user.id);
    return { conversation: presentConversation({ ...updated, assigneeId: updated.assigneeId ?? caller.user.id }), message: yield* presentOne(message, updated) };
  });

const assignTo = (conversation: Conversation, assigneeId: string | null, actorId: string) =>
  transaction(
    Effect.gen(function* () {
      const at = yield* now;
      yield* (yield* Conversations).update(conversation.id, { assigneeId, updatedAt: at });
      const updated = { ...conversation, assigneeId, updatedAt: at };
      const team = (yield* (yield* Conversations).supportTeam()).map((u) => u.id);
      yield* publishToAll(team, "chat.conversation", { conversation: presentConversation(updated) });
      yield* audit({ action: "chat.assigned", actorId, subjectId: conversation.id, details: { assignee: assigneeId } });
      return updated;
    }),
  );

/** Assigns to `assignee_identifier` (an admin or reviewer), to the caller when none is given, or unassigns with "". */
export const assign = (id: string, input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireSupport;
    const request = yield* validate(AssignRequest, input);
    const conversation = yield* conversationForSupport(id);
    const assigneeId = request.assignee_identifier === undefined ? caller.user.id : request.assignee_identifier === "" ? null : request.assignee_identifier;
    if (assigneeId !== null && assigneeId !== caller.user.id) {
      const assignee = yield* (yield* Users).findById(assigneeId);
      if (Option.isNone(assignee) || !isSupport(assignee.value) || !isActive(assignee.value)) {
        return yield* ValidationFailed.field("assignee_identifier", CHAT_MESSAGES.assigneeNotSupport);
      }
    }
    return presentConversation(yield* assignTo(conversation, assigneeId, caller.user.id));
  });

const setStatus = (id: string, status: "open" | "closed") =>
  Effect.gen(function* () {
    const caller = yield* requireSupport;
    const conversation = yield* conversationForSupport(id);
    const at = yield* now;
    return yield* transaction(
      Effect.gen(function* () {
        const patch = { status, closedAt: status === "closed" ? at : null, updatedAt: at };
        yield* (yield* Conversations).update(conversation.id, patch);
        const updated = { ...conversation, ...patch };
        const data = { conversation: presentConversation(updated) };
        const team = (yield* (yield* Conversations).supportTeam()).map((u) => u.id);
        yield* publishToAll(team, "chat.conversation", data);
        if (updated.userId !== null) yield* publish(updated.userId, "chat.conversation", data);
        yield* audit({ action: status === "closed" ? "chat.closed" : "chat.reopened", actorId: caller.user.id, subjectId: conversation.id });
        return presentConversation(updated);
      }),
    );
  });

export const close = (id: string) => setStatus(id, "closed");
export const reopen = (id: string) => setStatus(id, "open");
