import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { day } from "../i18n/dates.ts";
import { Pager } from "../ui/lists.tsx";
import { blockUser, type PracticeAwaiting, practicesAwaiting, verifyPractice } from "./api.ts";
import { ListBody } from "./ListBody.tsx";
import { actThenReload, usePagedRows } from "./usePagedRows.ts";

/**
 * Self-signed-up physicians whose practice is being verified (ADR 25, ADR 60), longest waiting first.
 * The admin checks the NPI number and the practice (e.g. in the NPI registry), then verifies: the
 * server audits it and e-mails the physician. An account that is not a real practice is blocked with
 * the directory's own call (its sessions end; it leaves this list).
 */
export function PracticeVerification() {
  const { t } = useTranslation("admin");
  const { page, setPage, rows, lastPage, failure, reload } = usePagedRows<PracticeAwaiting>(practicesAwaiting);
  const act = actThenReload(reload);
  return (
    <section className="panel" aria-labelledby="practices-title">
      <h2 id="practices-title">{t("practices.title")}</h2>
      <p className="muted">{t("practices.intro")}</p>
      <ListBody rows={rows} failure={failure} empty={t("practices.empty")}>
        {(rows) => (
          <div className="table-wrap">
            <table className="table table-stack">
              <caption className="sr-only">{t("practices.caption", { page })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("columns.physician")}</th>
                  <th scope="col">{t("columns.npi")}</th>
                  <th scope="col">{t("columns.practice")}</th>
                  <th scope="col">{t("columns.contact")}</th>
                  <th scope="col">{t("columns.signedUp")}</th>
                  <th scope="col">{t("columns.action")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => (
                  <tr key={p.identifier}>
                    <td>{p.name}</td>
                    <td data-label={t("columns.npi")}>{p.npi ?? <span className="muted">{t("practices.noNpi")}</span>}</td>
                    <td data-label={t("columns.practice")}>{p.practice_name ?? <span className="muted">{t("practices.noBaa")}</span>}</td>
                    <td data-label={t("columns.contact")}>
                      <span className="stack-lines">
                        <a href={`mailto:${p.email}`}>{p.email}</a>
                        {p.phone ? <span>{p.phone}</span> : null}
                        {p.fax_number ? <span>{t("practices.fax", { number: p.fax_number })}</span> : null}
                      </span>
                    </td>
                    <td data-label={t("columns.signedUp")}>{day(p.signed_up_at)}</td>
                    <td className="cell-actions" data-label={t("columns.action")}>
                      <Button className="btn btn-sm btn-primary" aria-label={t("practices.verifyLabel", { name: p.name })} onPress={() => void act(() => verifyPractice(p.identifier), t("practices.verified", { name: p.name }))}>
                        {t("practices.verify")}
                      </Button>{" "}
                      <Button className="btn btn-sm btn-secondary" aria-label={t("practices.blockLabel", { email: p.email })} onPress={() => void act(() => blockUser(p.identifier), t("practices.blocked", { email: p.email }))}>
                        {t("practices.block")}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListBody>
      <Pager page={page} lastPage={lastPage} onPage={setPage} label={t("practices.pages")} />
    </section>
  );
}
