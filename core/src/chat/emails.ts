import { composeIn, greeting, mailText } from "../i18n/mails/index.ts";
import type { Language } from "../shared/i18n.ts";
import { composeMail } from "../shared/mail.ts";
import type { OutgoingMail } from "../shared/ports.ts";

const hello = (firstName: string) => greeting("en", firstName);
const imagesNote = (n: number, language: Language = "en") => {
  const t = mailText(language, "chat");
  return n === 0 ? "" : n === 1 ? t("oneImage") : t("manyImages", { count: n });
};

/** Support's replies that the user (or visitor) has not read, in the customer's language (ADR 77). */
export const unseenMailToCustomer = (
  to: string,
  firstName: string,
  messages: ReadonlyArray<{ from: string | null; text: string; images: number }>,
  url: string,
  language: Language = "en",
): OutgoingMail => {
  const t = mailText(language, "chat");
  return composeIn(language, {
    to,
    subject: messages.length === 1 ? t("oneSubject") : t("manySubject", { count: messages.length }),
    greeting: greeting(language, firstName),
    paragraphs: [
      t("answered"),
      ...messages.map((m) => `${m.from ?? t("support")}: ${m.text}${imagesNote(m.images, language)}`),
      t("openToReply"),
    ],
    action: { label: t("action"), url },
  });
};

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
