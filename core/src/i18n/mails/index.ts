import { fill, type Language } from "../../shared/i18n.ts";
import { composeMail } from "../../shared/mail.ts";
import type { OutgoingMail } from "../../shared/ports.ts";
import { type MailCopy, MAILS_EN } from "./en.ts";
import { MAILS_ES } from "./es.ts";

export { MAILS_EN, type MailCopy } from "./en.ts";
export { MAILS_ES } from "./es.ts";

export const MAILS: Readonly<Record<Language, MailCopy>> = { en: MAILS_EN, es: MAILS_ES };

/** One group of the copy in a language, each text filled with the given values. */
export const mailText =
  <G extends keyof MailCopy>(language: Language, group: G) =>
  (key: keyof MailCopy[G], params: Readonly<Record<string, string | number>> = {}): string =>
    fill((MAILS[language][group] as Record<keyof MailCopy[G], string>)[key], params);

/** "Hello Ana," or "Hello," when the name is unknown. */
export const greeting = (language: Language, name: string | null | undefined): string =>
  name ? fill(MAILS[language].common.hello, { name }) : MAILS[language].common.helloAnyone;

/** `composeMail` in a language: its footer and the line under the button from the copy's common group. */
export const composeIn = (language: Language, input: Parameters<typeof composeMail>[0]): OutgoingMail =>
  composeMail({ footer: MAILS[language].common.footer, pasteAddress: MAILS[language].common.pasteAddress, ...input });
