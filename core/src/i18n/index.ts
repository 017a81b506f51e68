/** Core's message catalogues (English: the message constants; Spanish: `es/`) and how an answer is localised (ADR 76). */
export { EN, FIELD_LABELS, THINGS, type Catalogue } from "./en.ts";
export { ES } from "./es/index.ts";
export { localizeMessage, resolveMessage, type Lookup, type ResolvedMessage } from "./localize.ts";
import type { Language } from "../shared/i18n.ts";
import type { Catalogue } from "./en.ts";
import { EN } from "./en.ts";
import { ES } from "./es/index.ts";

/** Every language's catalogue of core's messages. */
export const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en: EN, es: ES };
