import { Effect, Option } from "effect";
import { AccountsConfig, type User, Users } from "../accounts/model.ts";
import { queueMail } from "../shared/mail-jobs.ts";
import { now, transaction } from "../shared/ports.ts";
import { requireCustomer } from "./access.ts";
import { unseenMailToCustomer, unseenMailToSupport } from "./emails.ts";
import { ChatConfig, type ChatMessage, ChatMessages, Conversations } from "./model.ts";
import { isSupport } from "./policy.ts";
import { namesOf } from "./present.ts";

/**
 * E-mails the messages that stayed unread: support's replies to the user (or visitor), customers'
 * messages to the assignee (or the whole team when nobody is assigned). One short transaction
 * claims the messages (marks them e-mailed) and queues one e-mail per recipient with them; the job
 * worker sends each outside any transaction and retries a failed send with backoff, so one
 * recipient's failing mail server neither re-sends the others' e-mails nor loses its own, and no
 * database connection waits on SMTP (docs/adr/0015-mail-through-job-queue.md). Answers how many
 * messages were claimed.
 */
const mailUnseen = (writtenBy: Date, conversationId: string | null) =>
  Effect.gen(function* () {
    const at = yield* now;
    const config = yield* AccountsConfig;
    return yield* transaction(
      Effect.gen(function* () {
        const claimed = yield* (yield* ChatMessages).claimUnseen(writtenBy, conversationId, at);
        if (claimed.length === 0) return 0;
        const conversations = yield* Conversations;
        const users = yield* Users;
        const byConversation = new Map<string, ChatMessage[]>();
        for (const m of claimed) byConversation.set(m.conversationId, [...(byConversation.get(m.conversationId) ?? []), m]);
        let team: ReadonlyArray<User> | null = null;
        for (const [id, messages] of byConversation) {
          const conversation = yield* conversations.findById(id);
          if (Option.isNone(conversation)) continue;
          const c = conversation.value;
          const names = yield* namesOf(messages);
          const fromSupport = messages.filter((m) => m.authorKind === "support");
          const fromCustomer = messages.filter((m) => m.authorKind !== "support");
          if (fromSupport.length > 0) {
            const user = c.userId !== null ? yield* users.findById(c.userId) : Option.none();
            const to = Option.isSome(user) ? user.value.email : c.visitorEmail;
            if (to) {
              const firstName = Option.isSome(user) ? user.value.firstName : c.visitorName ?? "";
              const url = Option.isSome(user) ? `${config.publicUrl}/dashboard?chat=open` : `${config.publicUrl}/?chat=open`;
              // A visitor has no account: their e-mails stay in English.
              const language = Option.isSome(user) ? user.value.language : "en";
              yield* queueMail(
                unseenMailToCustomer(to, firstName, fromSupport.map((m) => ({ from: names.get(m.authorId ?? "") ?? null, text: m.text, images: m.attachments.length })), url, language),
              );
            }
          }
          if (fromCustomer.length > 0) {
            const assignee = c.assigneeId !== null ? yield* users.findById(c.assigneeId) : Option.none();
            const recipients = Option.isSome(assignee) && isSupport(assignee.value) ? [assignee.value] : (team ??= yield* conversations.supportTeam());
            const who = c.userId !== null ? names.get(c.userId) ?? { unnamed: "user" as const } : c.visitorName ?? c.visitorEmail ?? { unnamed: "visitor" as const };
            for (const member of recipients) {
              yield* queueMail(
                unseenMailToSupport(
                  member.email,
                  member.firstName,
                  who,
                  fromCustomer.map((m) => ({ text: m.text, images: m.attachments.length })),
                  `${config.publicUrl}/support?conversation=${c.id}`,
                  member.language,
                ),
              );
            }
          }
        }
        return claimed.length;
      }),
    );
  });

/** For the worker: e-mails what stayed unread longer than the configured delay. */
export const mailUnseenMessages = Effect.gen(function* () {
  const config = yield* ChatConfig;
  const at = yield* now;
  return yield* mailUnseen(new Date(at.getTime() - config.emailDelaySeconds * 1000), null);
});

/** `POST /chat/messages`: e-mails the unseen messages of the caller's conversation now. */
export const mailUnseenNow = Effect.gen(function* () {
  const caller = yield* requireCustomer;
  const found = yield* (yield* Conversations).findByUser(caller.user.id);
  if (Option.isNone(found)) return { emailed: 0 };
  return { emailed: yield* mailUnseen(yield* now, found.value.id) };
});
