import { useTranslation } from "react-i18next";
import { resendVerification } from "../api/account-pages.ts";
import { EmailRequestPage } from "./EmailRequestPage.tsx";

export default function ResendVerification() {
  const { t } = useTranslation("account");
  return (
    <EmailRequestPage
      title={t("resend.title")}
      subtitle={t("resend.subtitle")}
      button={t("resend.button")}
      success={t("resend.success")}
      send={resendVerification}
    />
  );
}
