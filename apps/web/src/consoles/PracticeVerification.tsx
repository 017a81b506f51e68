import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { day } from "../i18n/dates.ts";
import { ListTable } from "../ui/ListTable.tsx";
import { blockUser, type PracticeAwaiting, practicesAwaiting, verifyPractice } from "./api.ts";
import { actThenReload, usePagedRows } from "../api/usePagedRows.ts";
import { ConsoleSection } from "./ConsoleSection.tsx";

/**
 * Self-signed-up physicians whose practice is being verified (ADR 25, ADR 60), longest waiting first.
 * The admin checks the NPI number and the practice (e.g. in the NPI registry), then verifies: the
 * server audits it and e-mails the physician. An account that is not a real practice is blocked with
 * the directory's own call (its sessions end; it leaves this list).
 */
export function PracticeVerification() {
  const { t } = useTranslation("admin");
  const { page, setPage, rows, lastPage, error, reload } = usePagedRows<PracticeAwaiting>(practicesAwaiting);
  const act = actThenReload(reload);
  return (
    <ConsoleSection name="practices" title={t("practices.title")} openOnPhone>
      <p className="muted">{t("practices.intro")}</p>
      <ListTable
        rows={rows}
        error={error}
        empty={t("practices.empty")}
        caption={t("practices.caption", { page })}
        rowKey={(p) => p.identifier}
        columns={[
          { header: t("columns.physician"), cell: (p) => p.name },
          { header: t("columns.npi"), cell: (p) => p.npi ?? <span className="muted">{t("practices.noNpi")}</span> },
          { header: t("columns.practice"), cell: (p) => p.practice_name ?? <span className="muted">{t("practices.noBaa")}</span> },
          {
            header: t("columns.contact"),
            cell: (p) => (
              <span className="stack-lines">
                <a href={`mailto:${p.email}`}>{p.email}</a>
                {p.phone ? <span>{p.phone}</span> : null}
                {p.fax_number ? <span>{t("practices.fax", { number: p.fax_number })}</span> : null}
              </span>
            ),
          },
          { header: t("columns.signedUp"), cell: (p) => day(p.signed_up_at) },
          {
            header: t("columns.action"),
            className: "cell-actions",
            cell: (p) => (
              <>
                <Button className="btn btn-sm btn-primary" aria-label={t("practices.verifyLabel", { name: p.name })} onPress={() => void act(() => verifyPractice(p.identifier), t("practices.verified", { name: p.name }))}>
                  {t("practices.verify")}
                </Button>{" "}
                <Button className="btn btn-sm btn-secondary" aria-label={t("practices.blockLabel", { email: p.email })} onPress={() => void act(() => blockUser(p.identifier), t("practices.blocked", { email: p.email }))}>
                  {t("practices.block")}
                </Button>
              </>
            ),
          },
        ]}
        pager={{ page, lastPage, onPage: setPage, label: t("practices.pages") }}
      />
    </ConsoleSection>
  );
}
