import { Effect, Option } from "effect";
import { CurrentUser } from "../accounts/model.ts";
import { requireActive } from "../accounts/access.ts";
import { Forbidden, NotFound } from "../shared/errors.ts";
import { Conversations } from "./model.ts";
import { isSupport, SUPPORT_TYPES } from "./policy.ts";
import { CHAT_MESSAGES } from "./requests.ts";

/** A customer (anyone but support) on their own conversation; support answers from the inbox. */
export const requireCustomer = Effect.gen(function* () {
  const caller = yield* CurrentUser;
  if (isSupport(caller.user)) return yield* new Forbidden({ message: CHAT_MESSAGES.notSupport });
  return caller;
});

export const requireSupport = requireActive(...SUPPORT_TYPES);

/** Support reaches every conversation; an unknown one is 404. */
export const conversationForSupport = (id: string) =>
  Effect.flatMap(Conversations, (c) =>
    Effect.flatMap(c.findById(id), Option.match({ onNone: () => Effect.fail(NotFound.of("Conversation")), onSome: Effect.succeed })),
  );
