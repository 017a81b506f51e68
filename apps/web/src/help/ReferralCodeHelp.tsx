import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { links } from "../config.ts";
import { Card } from "../ui/Card.tsx";

/** /help/referral-code: Crown's answer to "Need help finding your referral code?" (public: parents read it while onboarding). */
export default function ReferralCodeHelp() {
  const { t } = useTranslation("help");
  return (
    <Card title={t("referral.title")} subtitle={t("referral.subtitle")}>
      <p>{t("referral.intro")}</p>
      <h2 className="section-title">{t("referral.whereTitle")}</h2>
      <ul>
        <li>{t("referral.whereCard")}</li>
        <li>{t("referral.whereAsk")}</li>
      </ul>
      <h2 className="section-title">{t("referral.typingTitle")}</h2>
      <p>
        <Trans t={t} i18nKey="referral.typing" components={{ strong: <strong /> }} />
      </p>
      <p>
        <Trans t={t} i18nKey="referral.stuck" values={{ email: links.supportEmail }} components={{ mail: <a href={`mailto:${links.supportEmail}`} /> }} />{" "}
        <Link to="/baby-details">{t("referral.back")}</Link>
      </p>
    </Card>
  );
}
