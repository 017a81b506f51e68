import { LANGUAGE_NAMES, LANGUAGES, type Language } from "@crown/core/shared/i18n";
import { ToggleButton } from "react-aria-components";
import { useTranslation } from "react-i18next";

/**
 * English / Español for this session, in large buttons each named in its own language (so a parent finds
 * theirs whatever the screen shows). The choice goes to the kiosk machine, which drops it when the session ends.
 */
export function LanguageToggle({ language, onChoose }: { language: Language; onChoose: (language: Language) => void }) {
  const { t } = useTranslation("common");
  return (
    <div className="language-toggle" role="group" aria-label={t("language.label")}>
      {LANGUAGES.map((l) => (
        <ToggleButton key={l} lang={l} className="language-option" isSelected={language === l} onChange={() => language !== l && onChoose(l)}>
          {LANGUAGE_NAMES[l]}
        </ToggleButton>
      ))}
    </div>
  );
}
