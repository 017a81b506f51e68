import type { OutgoingMail } from "./ports.ts";

/** Builds a plain and an HTML body from the same paragraphs and one call to action, so they never disagree. */
export const composeMail = (input: {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: ReadonlyArray<string>;
  action?: { label: string; url: string };
  footer?: string;
  /** The line under the button, in the mail's language (English by default). */
  pasteAddress?: string;
}): OutgoingMail => {
  const footer = input.footer ?? "Crown infant head-shape screening. If you did not expect this e-mail, you can ignore it.";
  const text = [
    input.greeting,
    "",
    ...input.paragraphs.flatMap((p) => [p, ""]),
    ...(input.action ? [`${input.action.label}: ${input.action.url}`, ""] : []),
    "--",
    footer,
  ].join("\n");
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">
<p>${esc(input.greeting)}</p>
${input.paragraphs.map((p) => `<p>${esc(p)}</p>`).join("\n")}
${input.action ? `<p><a href="${esc(input.action.url)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${esc(input.action.label)}</a></p>\n<p style="font-size:12px">${esc(input.pasteAddress ?? "Or paste this address into your browser:")} ${esc(input.action.url)}</p>` : ""}
<hr><p style="font-size:12px;color:#6b7280">${esc(footer)}</p>
</body></html>`;
  return { to: input.to, subject: input.subject, text, html };
};
