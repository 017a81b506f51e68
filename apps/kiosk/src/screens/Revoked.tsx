import type { KioskRevocation } from "@crown/core/kiosk/revocation";
import { useTranslation } from "react-i18next";
import { Header, shownDay } from "./shared.tsx";

/**
 * A revoked tablet: nothing left on it, and no way on without a new pairing code. When the server said
 * when and why (ADR 0170), the person at the tablet reads them and what to do next; never who revoked it.
 */
export function Revoked({ revocation }: { readonly revocation: KioskRevocation | null }) {
  const { t } = useTranslation("common");
  if (!revocation) {
    return (
      <section className="panel narrow">
        <Header title={t("revoked.title")} subtitle={t("revoked.subtitle")} />
      </section>
    );
  }
  return (
    <section className="panel narrow revoked">
      <Header title={t("revoked.title")} subtitle={t("revoked.told")} />
      <dl className="revocation">
        <dt>{t("revoked.revokedOn")}</dt>
        <dd data-testid="revoked-on">{shownDay(revocation.revoked_at)}</dd>
        <dt>{t("revoked.reasonLabel")}</dt>
        <dd data-testid="revoked-reason">{t(`revoked.reason.${revocation.reason}`)}</dd>
      </dl>
      <h2 className="revocation-next">{t("revoked.nextLabel")}</h2>
      <p>{t(`revoked.next.${revocation.reason}`)}</p>
    </section>
  );
}
