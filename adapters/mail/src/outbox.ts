import { promises as fs } from "node:fs";
import path from "node:path";
import { outboxDir } from "./mail.ts";

/**
 * Reading the `.eml` outbox back, for tests and for local development. A small MIME reader:
 * enough for the messages this adapter writes (single part or multipart/alternative, 7bit, 8bit,
 * quoted-printable or base64 parts, RFC 2047 encoded-word headers).
 */

export interface OutboxMessage {
  readonly file: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

interface Part {
  readonly headers: Map<string, string>;
  readonly body: string;
}

const splitHeaderBody = (raw: string): Part => {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Unfold continuation lines (those that start with white space) into the header above.
  for (const line of head.replace(/\n[ \t]+/g, (m) => " " + m.slice(1).trimStart()).split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
};

const param = (headerValue: string | undefined, name: string): string | undefined => {
  if (!headerValue) return undefined;
  const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i").exec(headerValue);
  return m ? (m[1] ?? m[2]) : undefined;
};

const decoderFor = (charset: string | undefined) => {
  try {
    return new TextDecoder(charset?.trim() || "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
};

/** Quoted-printable (RFC 2045 §6.7) to bytes: soft line breaks removed, `=XX` decoded. */
export const decodeQuotedPrintable = (input: string): Uint8Array => {
  const text = input.replace(/[ \t]+$/gm, "").replace(/=\r?\n/g, "");
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3d /* = */ && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      out.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) {
      out.push(c);
    } else {
      out.push(...Buffer.from(text[i]!, "utf8"));
    }
  }
  return Uint8Array.from(out);
};

const decodeBody = (part: Part): string => {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").trim().toLowerCase();
  const charset = param(part.headers.get("content-type"), "charset");
  if (encoding === "base64") return decoderFor(charset).decode(Buffer.from(part.body.replace(/\s+/g, ""), "base64"));
  if (encoding === "quoted-printable") return decoderFor(charset).decode(decodeQuotedPrintable(part.body));
  return part.body;
};

/** RFC 2047 encoded words (`=?UTF-8?B?...?=` / `=?UTF-8?Q?...?=`); adjacent words join with no space. */
export const decodeHeader = (value: string): string =>
  value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, charset: string, enc: string, data: string) => {
      const bytes =
        enc.toUpperCase() === "B" ? Buffer.from(data, "base64") : decodeQuotedPrintable(data.replace(/_/g, " "));
      return decoderFor(charset).decode(bytes);
    });

/** Text parts of a message, depth first, by MIME type. */
const collectParts = (part: Part, into: Map<string, string>) => {
  const type = (part.headers.get("content-type") ?? "text/plain").split(";")[0]!.trim().toLowerCase();
  if (type.startsWith("multipart/")) {
    const boundary = param(part.headers.get("content-type"), "boundary");
    if (!boundary) return;
    const delimiter = `--${boundary}`;
    const lines = part.body.split("\n");
    let current: string[] | null = null;
    for (const line of lines) {
      const trimmed = line.trimEnd();
      if (trimmed === delimiter || trimmed === `${delimiter}--`) {
        if (current) collectParts(splitHeaderBody(current.join("\n")), into);
        current = trimmed === delimiter ? [] : null;
        if (!current) break;
      } else if (current) {
        current.push(line);
      }
    }
    return;
  }
  if (!into.has(type)) into.set(type, decodeBody(part));
};

export const parseEml = (raw: string, file = ""): OutboxMessage => {
  const message = splitHeaderBody(raw);
  const parts = new Map<string, string>();
  collectParts(message, parts);
  const header = (name: string) => decodeHeader(message.headers.get(name) ?? "");
  return {
    file,
    from: header("from"),
    to: header("to"),
    subject: header("subject"),
    text: parts.get("text/plain") ?? "",
    html: parts.get("text/html") ?? "",
  };
};

/** Every message in `${dataDir}/mail`, oldest first (newest last); an absent outbox is empty. */
export const readOutbox = async (dataDir: string): Promise<OutboxMessage[]> => {
  const dir = outboxDir(dataDir);
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith(".eml"));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  names.sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      return parseEml(await fs.readFile(file, "utf8"), file);
    }),
  );
};

/**
 * The first URL in `text` whose path starts with `pathPrefix` (e.g. `/verify-email`), exactly as
 * written: query strings with `&` and `=` are kept whole.
 */
export const findLink = (text: string, pathPrefix: string): string | undefined => {
  for (const match of text.matchAll(/https?:\/\/[^\s<>"']+/g)) {
    const candidate = match[0].replace(/[).,;:!?]+$/, "");
    try {
      const url = new URL(candidate);
      if (url.pathname.startsWith(pathPrefix)) return candidate;
    } catch {
      // not a URL after all
    }
  }
  return undefined;
};
