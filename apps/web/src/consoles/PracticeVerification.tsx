import { Button } from "react-aria-components";
import { formatUsDate } from "../reporting/api.ts";
import { Pager } from "../reporting/listing.tsx";
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
  const { page, setPage, rows, lastPage, failure, reload } = usePagedRows<PracticeAwaiting>(practicesAwaiting);
  const act = actThenReload(reload);
  return (
    <section className="panel" aria-labelledby="practices-title">
      <h2 id="practices-title">Practices awaiting verification</h2>
      <p className="muted">
        Check each physician's NPI number and practice before verifying. Once verified, the practice appears in the provider search and can add
        patients, staff and kiosks; the physician is e-mailed.
      </p>
      <ListBody rows={rows} failure={failure} empty="No practices are waiting for verification.">
        {(rows) => (
          <div className="table-wrap">
            <table className="table table-stack">
              <caption className="sr-only">Practices awaiting verification, longest waiting first, page {page}</caption>
              <thead>
                <tr>
                  <th scope="col">Physician</th>
                  <th scope="col">NPI number</th>
                  <th scope="col">Practice</th>
                  <th scope="col">Contact</th>
                  <th scope="col">Signed up</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => (
                  <tr key={p.identifier}>
                    <td>{p.name}</td>
                    <td data-label="NPI number">
                      {p.npi ?? <span className="muted">None given</span>}
                    </td>
                    <td data-label="Practice">{p.practice_name ?? <span className="muted">BAA not signed yet</span>}</td>
                    <td data-label="Contact">
                      <span className="stack-lines">
                        <a href={`mailto:${p.email}`}>{p.email}</a>
                        {p.phone ? <span>{p.phone}</span> : null}
                        {p.fax_number ? <span>Fax {p.fax_number}</span> : null}
                      </span>
                    </td>
                    <td data-label="Signed up">{formatUsDate(p.signed_up_at)}</td>
                    <td className="cell-actions" data-label="Action">
                      <Button className="btn btn-sm btn-primary" aria-label={`Verify practice of ${p.name}`} onPress={() => void act(() => verifyPractice(p.identifier), `${p.name}'s practice is verified`)}>
                        Verify practice
                      </Button>{" "}
                      <Button className="btn btn-sm btn-secondary" aria-label={`Block ${p.email}`} onPress={() => void act(() => blockUser(p.identifier), `${p.email} is blocked`)}>
                        Block
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListBody>
      <Pager page={page} lastPage={lastPage} onPage={setPage} label="Practices awaiting verification pages" />
    </section>
  );
}
