import { Effect, Schema } from "effect";
import { JobQueue } from "./jobs.ts";
import { Mailer, type OutgoingMail } from "./ports.ts";

/**
 * E-mails that tell of a committed change go through the job queue (docs/adr/0015-mail-through-job-queue.md):
 * enqueued in the transaction of the change, so a rolled-back change sends nothing and a committed
 * one cannot lose its e-mail; the worker sends each one outside any transaction and retries a
 * failed send with backoff.
 */

export const SEND_MAIL_JOB = "send-mail";

/** Retries with backoff reach about 21 to 42 minutes (5 s doubling, with jitter) before a mail is given up as failed. */
const MAIL_ATTEMPTS = 9;

const OutgoingMailSchema = Schema.Struct({ to: Schema.String, subject: Schema.String, text: Schema.String, html: Schema.String });
const MailJobPayload = Schema.Struct({ mail: OutgoingMailSchema });

/** Enqueues one e-mail on the current transaction. */
export const queueMail = (mail: OutgoingMail) =>
  Effect.flatMap(JobQueue, (queue) => queue.enqueue({ name: SEND_MAIL_JOB, payload: { mail: { ...mail } }, maxAttempts: MAIL_ATTEMPTS }));

/** The worker's side: sends the e-mail a job carries (a failed send fails the attempt, to be retried). */
export const sendQueuedMail = (payload: unknown) =>
  Effect.gen(function* () {
    const { mail } = yield* Schema.decodeUnknown(MailJobPayload)(payload).pipe(Effect.orDie);
    yield* (yield* Mailer).send(mail);
  });
