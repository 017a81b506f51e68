import { useTranslation } from "react-i18next";
import { recoverPassword } from "../api/account-pages.ts";
import { EmailRequestPage } from "./EmailRequestPage.tsx";

export default function ForgotPassword() {
  const { t } = useTranslation("account");
  return (
    <EmailRequestPage
      title={t("forgot.title")}
      subtitle={t("forgot.subtitle")}
      button={t("forgot.button")}
      success={t("forgot.success")}
      send={recoverPassword}
    />
  );
}
