import { LANGUAGE_NAMES, LANGUAGES, isLanguage } from "@crown/core/shared/i18n";
import { useEffect, useId } from "react";
import { useTranslation } from "react-i18next";
import { getProfile } from "../api/account-pages.ts";
import { crown } from "../api/crown.ts";
import { toast } from "../ui/toasts.tsx";
import { switchLanguage } from "./i18n.ts";
import { currentLanguage } from "./language.ts";

/** Signed in, the account's language is the portal's: the one its e-mails and reports are in. */
export function useAccountLanguage(signedIn: boolean) {
  useEffect(() => {
    if (!signedIn) return;
    getProfile()
      .then(({ results }) => {
        if (isLanguage(results.language) && results.language !== currentLanguage()) void switchLanguage(results.language);
      })
      .catch(() => undefined);
  }, [signedIn]);
}

/** Switches the portal's language; signed in, the account's too (POST /user/language, ADR 77). */
export function useChooseLanguage(signedIn: boolean) {
  // i18n.t, not the render's t: the toast speaks the language just chosen.
  const { i18n } = useTranslation();
  return async (value: string) => {
    if (!isLanguage(value)) return;
    await switchLanguage(value);
    if (!signedIn) return;
    try {
      await crown.call((api) => api.user.language.$post({ json: { language: value } }), { quiet: true });
      toast(i18n.t("language.saved"), "success");
    } catch {
      toast(i18n.t("language.notSaved"), "error");
    }
  };
}

/**
 * The language switcher of the login page. Signed in, the choice is also the account's, so e-mails
 * and reports follow it; signed out it stays on this browser. The signed-in header offers the same
 * choice in its account menu (shell/ProfileMenu.tsx).
 */
export function LanguageSwitcher({ signedIn = false }: { readonly signedIn?: boolean }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  useAccountLanguage(signedIn);
  const change = useChooseLanguage(signedIn);
  return (
    <div className="language-switcher">
      <label htmlFor={id}>{t("language.label")}</label>
      <select id={id} value={i18n.language} onChange={(e) => void change(e.target.value)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}
