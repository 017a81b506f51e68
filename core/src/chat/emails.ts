import { composeIn, greeting, mailText } from "../i18n/mails/index.ts";
import type { Language } from "../shared/i18n.ts";
import type { OutgoingMail } from "../shared/ports.ts";

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

/**
 * Customers' messages nobody in support has read yet, in the support member's language. `who` is the
 * customer's name, or which kind of customer it is when the name is unknown.
 */
export const unseenMailToSupport = (
  to: string,
  firstName: string,
  who: string | { readonly unnamed: "user" | "visitor" },
  messages: ReadonlyArray<{ text: string; images: number }>,
  url: string,
  language: Language = "en",
): OutgoingMail => {
  const t = mailText(language, "support");
  const name = typeof who === "string" ? who : t(who.unnamed === "user" ? "aUser" : "aVisitor");
  return composeIn(language, {
    to,
    subject: t("subject", { who: name }),
    greeting: greeting(language, firstName),
    paragraphs: [t("waiting", { who: name }), ...messages.map((m) => `${m.text}${imagesNote(m.images, language)}`)],
    action: { label: t("action"), url },
    footer: t("footer"),
  });
};
