import { useTranslation } from "react-i18next";
import { Header } from "./shared.tsx";

/** A revoked tablet: nothing left on it, and no way on without a new pairing code. */
export function Revoked() {
  const { t } = useTranslation("common");
  return (
    <section className="panel narrow">
      <Header title={t("revoked.title")} subtitle={t("revoked.subtitle")} />
    </section>
  );
}
