import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { composeMail, Mailer, type OutgoingMail } from "@crown/core";
import { Effect } from "effect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_FROM, mailLayerFromEnv, makeOutboxMailer, makeSmtpMailer } from "./mail.ts";
import { decodeHeader, decodeQuotedPrintable, findLink, parseEml, readOutbox } from "./outbox.ts";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "crown-mail-"));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const LINK = "http://localhost:8080/verify-email?id=01JABCDEF&token=a-b_c%3D%3D&expires=1767225600&signature=Zm9v_YmFy-YmF6=";

const verification = (to = "parent@example.com"): OutgoingMail =>
  composeMail({
    to,
    subject: "Verify your email address",
    greeting: "Hello Ana,",
    paragraphs: ["Please confirm your e-mail address to finish creating your Crown account. ".repeat(3).trim()],
    action: { label: "Verify email", url: LINK },
  });

const send = (mail: OutgoingMail) =>
  Effect.runPromise(Effect.provide(Effect.flatMap(Mailer, (m) => m.send(mail)), mailLayerFromEnv({ dataDir }, {})));

describe("outbox mailer", () => {
  it("writes one RFC 5322 .eml with headers, a text part and an HTML part", async () => {
    await send(verification());
    const files = await readdir(path.join(dataDir, "mail"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]{14}\.eml$/);
    const raw = await readFile(path.join(dataDir, "mail", files[0]!), "utf8");
    const [head] = raw.split("\r\n\r\n");
    expect(head).toContain(`From: ${DEFAULT_FROM}`);
    expect(head).toContain("To: parent@example.com");
    expect(head).toContain("Subject: Verify your email address");
    expect(head).toMatch(/^Date: /m);
    expect(head).toMatch(/^Message-ID: </m);
    expect(head).toMatch(/^MIME-Version: 1\.0/m);
    expect(head).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(raw).toMatch(/Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64/);
    expect(raw).toMatch(/Content-Type: text\/html; charset=utf-8/);
    // RFC 5322: CRLF line ends and no line longer than 998 characters.
    expect(raw.split("\r\n").every((l) => !l.includes("\n") && l.length <= 998)).toBe(true);
  });

  it("reads messages back, newest last, with bodies decoded", async () => {
    const first = verification("first@example.com");
    await send(first);
    await send({ to: "second@example.com", subject: "Grüße — ✓ done", text: "Zweite Nachricht: äöü ß\nline 2", html: "<p>Zweite ✓</p>" });
    const outbox = await readOutbox(dataDir);
    expect(outbox.map((m) => m.to)).toEqual(["first@example.com", "second@example.com"]);
    expect(outbox[0]!.text).toBe(first.text);
    expect(outbox[0]!.html).toBe(first.html);
    expect(outbox[0]!.from).toBe(DEFAULT_FROM);
    expect(outbox[1]!.subject).toBe("Grüße — ✓ done");
    expect(outbox[1]!.text).toBe("Zweite Nachricht: äöü ß\nline 2");
    expect(outbox[1]!.html).toBe("<p>Zweite ✓</p>");
    expect(outbox[1]!.file.endsWith(".eml")).toBe(true);
  });

  it("keeps a link with & and = in its query intact in the text part", async () => {
    await send(verification());
    const [message] = await readOutbox(dataDir);
    expect(findLink(message!.text, "/verify-email")).toBe(LINK);
    expect(message!.html).toContain(LINK.replace(/&/g, "&amp;"));
  });

  it("orders many messages sent in the same millisecond", async () => {
    const mailer = makeOutboxMailer(dataDir);
    for (let i = 0; i < 20; i++) await Effect.runPromise(mailer.send({ to: `u${i}@example.com`, subject: `n${i}`, text: "t", html: "<p>h</p>" }));
    expect((await readOutbox(dataDir)).map((m) => m.subject)).toEqual(Array.from({ length: 20 }, (_, i) => `n${i}`));
  });

  it("uses a configured sender", async () => {
    await Effect.runPromise(makeOutboxMailer(dataDir, "Clinic <clinic@example.org>").send(verification()));
    expect((await readOutbox(dataDir))[0]!.from).toBe("Clinic <clinic@example.org>");
  });

  it("an absent outbox reads as empty", async () => {
    expect(await readOutbox(path.join(dataDir, "nothing-here"))).toEqual([]);
  });
});

describe("MIME reading", () => {
  it("decodes quoted-printable with soft breaks and multibyte characters", () => {
    const qp = "https://x/verify-email?id=3D1&token=3Dab=\r\ncd&sig=3D=3D\r\ncaf=C3=A9";
    expect(new TextDecoder().decode(decodeQuotedPrintable(qp))).toBe("https://x/verify-email?id=1&token=abcd&sig==\r\ncafé");
  });

  it("decodes encoded-word headers", () => {
    expect(decodeHeader("=?UTF-8?B?R3LDvMOfZQ==?= =?UTF-8?Q?_und_caf=C3=A9?=")).toBe("Grüße und café");
    expect(decodeHeader("Plain subject")).toBe("Plain subject");
  });

  it("parses a quoted-printable multipart message", () => {
    const eml = [
      "From: a@b.c",
      "To: x@y.z",
      "Subject: Hi",
      "Content-Type: multipart/alternative; boundary=\"BOUND\"",
      "",
      "--BOUND",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "Go: http://h/reset-password?t=3Dx&y=3D=",
      "1 caf=C3=A9",
      "--BOUND",
      "Content-Type: text/html; charset=utf-8",
      "",
      "<p>Go</p>",
      "--BOUND--",
      "",
    ].join("\r\n");
    const m = parseEml(eml);
    expect(m.text).toBe("Go: http://h/reset-password?t=x&y=1 café");
    expect(m.html).toBe("<p>Go</p>");
    expect(findLink(m.text, "/reset-password")).toBe("http://h/reset-password?t=x&y=1");
  });

  it("findLink skips other paths and trailing punctuation", () => {
    const text = "See https://crown.example/help. Then open https://crown.example/verify-email?a=1&b=2=3.";
    expect(findLink(text, "/verify-email")).toBe("https://crown.example/verify-email?a=1&b=2=3");
    expect(findLink(text, "/reset-password")).toBeUndefined();
  });
});

/** A minimal SMTP server (no TLS, no auth) that records what it receives. */
const startSmtpServer = async () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  const server: Server = createServer((socket) => {
    let buffer = "";
    let inData = false;
    let current = { from: "", to: [] as string[], data: "" };
    socket.write("220 test ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          current.data = buffer.slice(0, end).replace(/^\.\./gm, ".");
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: "", to: [], data: "" };
          socket.write("250 OK queued\r\n");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") socket.write("250-test\r\n250 8BITMIME\r\n");
        else if (verb === "MAIL") (current.from = line), socket.write("250 OK\r\n");
        else if (verb === "RCPT") current.to.push(line), socket.write("250 OK\r\n");
        else if (verb === "DATA") (inData = true), socket.write("354 go ahead\r\n");
        else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 OK\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
};

describe("SMTP mailer", () => {
  it("delivers through the server named by SMTP_URL", async () => {
    const smtp = await startSmtpServer();
    try {
      const mailer = makeSmtpMailer(`smtp://127.0.0.1:${smtp.port}/?ignoreTLS=true`);
      await Effect.runPromise(mailer.send(verification("smtp@example.com")));
      mailer.close();
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.from).toContain("no-reply@crown.local");
      expect(smtp.received[0]!.to[0]).toContain("smtp@example.com");
      const parsed = parseEml(smtp.received[0]!.data);
      expect(parsed.subject).toBe("Verify your email address");
      expect(findLink(parsed.text, "/verify-email")).toBe(LINK);
      // Nothing went to the outbox.
      expect(await readOutbox(dataDir)).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it("mailLayerFromEnv picks SMTP when SMTP_URL is set", async () => {
    const smtp = await startSmtpServer();
    try {
      await Effect.runPromise(
        Effect.scoped(
          Effect.provide(
            Effect.flatMap(Mailer, (m) => m.send(verification())),
            mailLayerFromEnv({ dataDir }, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}/?ignoreTLS=true`, MAIL_FROM: "Ops <ops@example.org>" }),
          ),
        ),
      );
      expect(smtp.received).toHaveLength(1);
      expect(parseEml(smtp.received[0]!.data).from).toBe("Ops <ops@example.org>");
      expect(await readOutbox(dataDir)).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it("a refused connection is a defect without the message body in it", async () => {
    const mailer = makeSmtpMailer("smtp://127.0.0.1:1/?ignoreTLS=true&connectionTimeout=2000");
    const exit = await Effect.runPromiseExit(mailer.send(verification()));
    expect(exit._tag).toBe("Failure");
    expect(JSON.stringify(exit)).not.toContain("verify-email");
    mailer.close();
  });
});
