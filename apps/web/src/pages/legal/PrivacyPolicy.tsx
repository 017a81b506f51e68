import { Trans, useTranslation } from "react-i18next";
import { links } from "../../config.ts";
import { LegalPage } from "./LegalPage.tsx";

export default function PrivacyPolicy() {
  const { t } = useTranslation("legal");
  const removal = <a href={links.removeAccount} target="_blank" rel="opener" />;
  return (
    <LegalPage title={t("privacy.title")} updated="2026-11-22">
      <p>{t("privacy.intro")}</p>
      <h2>{t("privacy.collectTitle")}</h2>
      <ul>
        <li>{t("privacy.collectAccount")}</li>
        <li>{t("privacy.collectBaby")}</li>
        <li>{t("privacy.collectMedia")}</li>
        <li>{t("privacy.collectTechnical")}</li>
      </ul>
      <h2>{t("privacy.whyTitle")}</h2>
      <p>{t("privacy.why")}</p>
      <h2>{t("privacy.safeTitle")}</h2>
      <ul>
        <li>{t("privacy.safeTransport")}</li>
        <li>{t("privacy.safeAtRest")}</li>
        <li>{t("privacy.safeAccess")}</li>
        <li>{t("privacy.safeSessions")}</li>
        <li>{t("privacy.safeNeverSell")}</li>
      </ul>
      <h2>{t("privacy.shareTitle")}</h2>
      <p>{t("privacy.share")}</p>
      <h2>{t("privacy.keepTitle")}</h2>
      <p>{t("privacy.keep")}</p>
      <h2>{t("privacy.choicesTitle")}</h2>
      <p>{t("privacy.choicesProfile")}</p>
      <p>{t("privacy.download")}</p>
      <p>
        <Trans t={t} i18nKey="privacy.choicesRemove" components={{ strong: <strong />, removal }} />
      </p>
      <ul>
        <li>{t("privacy.removeRecord")}</li>
        <li>{t("privacy.removeConfirm")}</li>
        <li>{t("privacy.removeAdmins")}</li>
      </ul>
      <p>
        <Trans t={t} i18nKey="privacy.removeUntil" values={{ email: links.supportEmail }} components={{ mail: <a href={`mailto:${links.supportEmail}`} /> }} />
      </p>
      <h2>{t("privacy.childrenTitle")}</h2>
      <p>{t("privacy.children")}</p>
      <h2>{t("privacy.changesTitle")}</h2>
      <p>{t("privacy.changes")}</p>
    </LegalPage>
  );
}
