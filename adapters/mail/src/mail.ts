import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { Mailer, type MailerPort, type OutgoingMail } from "@crown/core";
import { Effect, Layer } from "effect";
import nodemailer from "nodemailer";

export const DEFAULT_FROM = "Crown <no-reply@crown.local>";

/** Message options shared by both transports; base64 text parts keep long signed links intact. */
const messageOf = (from: string, mail: OutgoingMail) => ({
  from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  textEncoding: "base64" as const,
});

/** Sends through an SMTP server, e.g. `smtp://user:pass@host:587` or `smtps://...`. */
export const makeSmtpMailer = (smtpUrl: string, from: string = DEFAULT_FROM): MailerPort & { close: () => void } => {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    // A mail server that is down is an infrastructure failure: a defect, not a domain error.
    // The error message is kept generic so neither the URL's credentials nor the body reach a log.
    send: (mail) =>
      Effect.tryPromise({
        try: () => transport.sendMail(messageOf(from, mail)),
        catch: (e) => new Error(`SMTP delivery failed: ${(e as { code?: string }).code ?? "unknown error"}`),
      }).pipe(Effect.asVoid, Effect.orDie),
    close: () => transport.close(),
  };
};

export const outboxDir = (dataDir: string) => path.join(dataDir, "mail");

let sequence = 0;
/** `<ISO timestamp>-<sequence><random>.eml`; colons are left out so the name works on every file system. */
const outboxFileName = (at: Date) =>
  `${at.toISOString().replace(/:/g, "-")}-${(sequence++ % 1_000_000).toString().padStart(6, "0")}${randomBytes(4).toString("hex")}.eml`;

/** Writes each message as one RFC 5322 `.eml` file under `${dataDir}/mail/`. */
export const makeOutboxMailer = (dataDir: string, from: string = DEFAULT_FROM): MailerPort => {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const dir = outboxDir(dataDir);
  return {
    send: (mail) =>
      Effect.promise(async () => {
        const info = await transport.sendMail(messageOf(from, mail));
        const message = info.message as Buffer;
        await fs.mkdir(dir, { recursive: true });
        const file = path.join(dir, outboxFileName(new Date()));
        // Written beside its final name and renamed, so a reader never sees half a message.
        const temp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
        await fs.writeFile(temp, message, { mode: 0o600 });
        await fs.rename(temp, file);
      }),
  };
};

export interface MailSettings {
  readonly dataDir: string;
  /** Falls back to `SMTP_URL`; unset means the `.eml` outbox. */
  readonly smtpUrl?: string | undefined;
  /** Falls back to `MAIL_FROM`, then `Crown <no-reply@crown.local>`. */
  readonly from?: string | undefined;
}

export const makeMailerFromEnv = (settings: MailSettings, env: NodeJS.ProcessEnv = process.env): MailerPort => {
  const smtpUrl = settings.smtpUrl ?? (env.SMTP_URL?.trim() || undefined);
  const from = settings.from ?? (env.MAIL_FROM?.trim() || DEFAULT_FROM);
  return smtpUrl ? makeSmtpMailer(smtpUrl, from) : makeOutboxMailer(settings.dataDir, from);
};

export const smtpMailerLayer = (smtpUrl: string, from?: string): Layer.Layer<Mailer> =>
  Layer.scoped(
    Mailer,
    Effect.acquireRelease(
      Effect.sync(() => makeSmtpMailer(smtpUrl, from)),
      (m) => Effect.sync(() => m.close()),
    ),
  );
export const outboxMailerLayer = (dataDir: string, from?: string): Layer.Layer<Mailer> =>
  Layer.sync(Mailer, () => makeOutboxMailer(dataDir, from));

/** SMTP when `smtpUrl` / `SMTP_URL` is set, otherwise the `.eml` outbox under the data dir. */
export const mailLayerFromEnv = (settings: MailSettings, env: NodeJS.ProcessEnv = process.env): Layer.Layer<Mailer> => {
  const smtpUrl = settings.smtpUrl ?? (env.SMTP_URL?.trim() || undefined);
  const from = settings.from ?? (env.MAIL_FROM?.trim() || DEFAULT_FROM);
  return smtpUrl ? smtpMailerLayer(smtpUrl, from) : outboxMailerLayer(settings.dataDir, from);
};
