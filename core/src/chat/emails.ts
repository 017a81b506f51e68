import { composeMail } from "../shared/mail.ts";
import type { OutgoingMail } from "../shared/ports.ts";

const hello = (firstName: string) => (firstName ? `Hello ${firstName},` : "Hello,");
const imagesNote = (n: number) => (n === 0 ? "" : n === 1 ? " [1 image]" : ` [${n} images]`);

/** Support's replies that the user (or visitor) has not read. */
export const unseenMailToCustomer = (
  to: string,
  firstName: string,
  messages: ReadonlyArray<{ from: string; text: string; images: number }>,
  url: string,
): OutgoingMail =>
  composeMail({
    to,
    subject: messages.length === 1 ? "You have a new message from Crown support" : `You have ${messages.length} new messages from Crown support`,
    greeting: hello(firstName),
    paragraphs: [
      "Crown support answered you in the chat while you were away:",
      ...messages.map((m) => `${m.from}: ${m.text}${imagesNote(m.images)}`),
      "Open Crown to read the conversation and reply.",
    ],
    action: { label: "Open the chat", url },
  });

/** Customers' messages nobody in support has read yet. */
export const unseenMailToSupport = (
  to: string,
  firstName: string,
  who: string,
  messages: ReadonlyArray<{ text: string; images: number }>,
  url: string,
): OutgoingMail =>
  composeMail({
    to,
    subject: `Unread chat from ${who}`,
    greeting: hello(firstName),
    paragraphs: [`${who} wrote in the support chat and is waiting for an answer:`, ...messages.map((m) => `${m.text}${imagesNote(m.images)}`)],
    action: { label: "Open the support inbox", url },
    footer: "Crown support inbox. You receive this because you are on the support team.",
  });
