import { Effect } from "effect";
import type { Kysely } from "kysely";
import { Mailer, type MailerPort } from "@crown/core";
import type { Database } from "@crown/db";
import { startReportWorker } from "../../apps/server/src/reports.ts";

/**
 * The job worker with a mail server that refuses the next send to the addresses in `failNext`
 * (once each), and otherwise delivers through the server's own mailer; failed attempts are retried
 * at once (no backoff) so a test sees the retry.
 */
export const flakyMailWorker = async (db: Kysely<Database>, run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>) => {
  const real = await run(Mailer);
  const failNext = new Set<string>();
  const attempts: string[] = [];
  const mailer: MailerPort = {
    send: (mail) =>
      Effect.suspend(() => {
        attempts.push(mail.to);
        if (failNext.delete(mail.to)) return Effect.die(new Error(`421 ${mail.to}: service not available, try again later`));
        return real.send(mail);
      }),
  };
  const worker = startReportWorker(db, (effect) => run(Effect.provideService(effect, Mailer, mailer)), undefined, { pollMs: 50, backoffSeconds: 0 });
  return { worker, failNext, attempts };
};
