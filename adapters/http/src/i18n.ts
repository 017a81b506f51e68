import { CATALOGUES, localizeMessage } from "@crown/core/i18n/index";
import { DEFAULT_LANGUAGE, type Language, LANGUAGES } from "@crown/core/shared/i18n";
import i18next, { type i18n } from "i18next";
import ICU from "i18next-icu";
import type { MiddlewareHandler } from "hono";
import type { Env } from "./env.ts";
import { HTTP_EN, HTTP_ES } from "./messages.ts";

/**
 * The API's answers in the language of its prefix (ADR 76): `/api/v1/en` answers core's English
 * untouched; any other language's `message` and field errors are looked up in the catalogues and
 * rendered by i18next with ICU messages. Data in `results` is never translated.
 */

const HTTP_CATALOGUES: Readonly<Record<Language, Record<string, string>>> = { en: HTTP_EN, es: HTTP_ES };

const translator: i18n = i18next.createInstance();
void translator.use(new ICU()).init({
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { core: CATALOGUES[l], http: HTTP_CATALOGUES[l] }])),
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  ns: ["core", "http"],
  defaultNS: "core",
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

const httpKeys = new Map(Object.entries(HTTP_EN).map(([key, text]) => [text as string, key]));

/** One message in `language`: core's by its key, the adapter's own, or (none of ours) as given. */
export const translate = (text: string, language: Language): string => {
  if (language === DEFAULT_LANGUAGE) return text;
  const own = httpKeys.get(text);
  if (own) return translator.t(own, { ns: "http", lng: language });
  return localizeMessage(text, language, (key, params) => translator.t(key, { ns: "core", lng: language, ...params }));
};

type Answer = { message?: unknown; errors?: unknown };

const translateAnswer = (body: Answer, language: Language): Answer => {
  const out: Answer = { ...body };
  if (typeof body.message === "string") out.message = translate(body.message, language);
  if (body.errors && typeof body.errors === "object" && !Array.isArray(body.errors)) {
    out.errors = Object.fromEntries(
      Object.entries(body.errors as Record<string, unknown>).map(([field, list]) => [
        field,
        Array.isArray(list) ? list.map((m) => (typeof m === "string" ? translate(m, language) : m)) : list,
      ]),
    );
  }
  return out;
};

/**
 * Sets the request's language, and answers a JSON envelope's `message` and `errors` in it. English
 * answers pass through untouched (the same bytes); files and streams are never read here.
 */
export const answerIn =
  (language: Language): MiddlewareHandler<Env> =>
  async (c, next) => {
    c.set("language", language);
    await next();
    if (language === DEFAULT_LANGUAGE) return;
    const res = c.res;
    if (!(res.headers.get("content-type") ?? "").startsWith("application/json")) return;
    const body: unknown = await res.clone().json().catch(() => null);
    if (body === null || typeof body !== "object" || Array.isArray(body)) return;
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    c.res = undefined;
    c.res = new Response(JSON.stringify(translateAnswer(body as Answer, language)), { status: res.status, headers });
  };
