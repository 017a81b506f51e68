import { Trans, useTranslation } from "react-i18next";
import { links } from "../../config.ts";
import { LegalPage } from "./LegalPage.tsx";

export default function TermsOfService() {
  const { t } = useTranslation("legal");
  return (
    <LegalPage title={t("terms.title")} updated="2026-11-22">
      <p>{t("terms.intro")}</p>
      <h2>{t("terms.screeningTitle")}</h2>
      <p>{t("terms.screening")}</p>
      <h2>{t("terms.accountTitle")}</h2>
      <ul>
        <li>{t("terms.accountTrue")}</li>
        <li>{t("terms.accountWho")}</li>
        <li>{t("terms.accountBaa")}</li>
      </ul>
      <h2>{t("terms.mediaTitle")}</h2>
      <p>{t("terms.media")}</p>
      <h2>{t("terms.useTitle")}</h2>
      <p>{t("terms.use")}</p>
      <h2>{t("terms.feesTitle")}</h2>
      <p>{t("terms.fees")}</p>
      <h2>{t("terms.endingTitle")}</h2>
      <p>
        <Trans t={t} i18nKey="terms.ending" components={{ strong: <strong />, removal: <a href={links.removeAccount} target="_blank" rel="opener" /> }} />
      </p>
      <h2>{t("terms.liabilityTitle")}</h2>
      <p>{t("terms.liability")}</p>
      <h2>{t("terms.contactTitle")}</h2>
      <p>
        <Trans t={t} i18nKey="terms.contact" values={{ email: links.supportEmail }} components={{ mail: <a href={`mailto:${links.supportEmail}`} /> }} />
      </p>
    </LegalPage>
  );
}
