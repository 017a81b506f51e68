import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { getProfile } from "../api/accounts.ts";
import { staffPhysicians } from "../api/onboarding.ts";
import { messageOf } from "../api/client.ts";
import { formatUsDate } from "../reporting/api.ts";
import { sessionActor, updateSession } from "../session/store.ts";
import { ModalDialog } from "../ui/dialogs.tsx";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { answerLinkRequest, type LinkRequest, linkRequests, STAFF_TYPE_NAMES } from "./api.ts";

/** What the practice asks, in the invitee's words. */
const askedFor = (r: LinkRequest) =>
  r.baby
    ? `${r.physician.name} asks to add ${r.baby.name} (born ${formatUsDate(r.baby.date_of_birth)}) to your account.`
    : `${r.physician.name} asks you to join their staff as ${(STAFF_TYPE_NAMES[r.staff_type ?? "nurse"] ?? "Nurse").toLowerCase()}.`;

const afterAccepting = (r: LinkRequest) =>
  r.baby ? `${r.baby.name} now appears in your account.` : `You can now act for ${r.physician.name}: choose them in the physician selector.`;

/**
 * /link-requests: a practice's requests awaiting the signed-in parent's or staff member's answer
 * (issue 15, ADR 56). Nothing is linked until the person accepts here; the bell and the e-mail lead here.
 */
export default function LinkRequests() {
  const [rows, setRows] = useState<ReadonlyArray<LinkRequest> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [declining, setDeclining] = useState<LinkRequest | null>(null);

  useEffect(() => {
    let live = true;
    linkRequests()
      .then((r) => live && setRows(r.results.data))
      .catch((e) => {
        if (!live) return;
        setRows([]);
        setError(messageOf(e));
      });
    return () => {
      live = false;
    };
  }, []);

  const answer = async (r: LinkRequest, choice: "accept" | "decline") => {
    setBusy(r.identifier);
    try {
      await answerLinkRequest(choice, r);
      setRows((all) => (all ?? []).filter((x) => x.identifier !== r.identifier));
      toast(choice === "accept" ? afterAccepting(r) : "Request declined. Nothing was linked.", "success");
      // The baby switcher and the physician selector: bring them up to date.
      if (choice === "accept" && r.baby) {
        const babies = (await getProfile()).results.babies;
        if (babies) updateSession({ babies });
      }
      if (choice === "accept" && !r.baby) sessionActor.send({ type: "LISTS", patch: { physicians: (await staffPhysicians()).results ?? [] } });
    } catch (e) {
      toast(messageOf(e), "error");
    } finally {
      setBusy(null);
      setDeclining(null);
    }
  };

  return (
    <section className="panel narrow-panel" aria-labelledby="page-title">
      <h1 id="page-title">Requests from practices</h1>
      <p className="card-subtitle">A practice that uses your e-mail address links nothing to your account until you accept.</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">No requests are waiting for your answer.</p>
      ) : (
        <ul className="link-requests" aria-label="Requests awaiting your answer">
          {rows.map((r) => (
            <li key={r.identifier} className="card link-request">
              <p>{askedFor(r)}</p>
              <p className="muted">Asked on {formatUsDate(r.created_at.slice(0, 10))}</p>
              <div className="form-actions">
                <Button className="btn btn-ghost" isDisabled={busy !== null} onPress={() => setDeclining(r)}>
                  Decline
                </Button>
                <Button className="btn btn-primary" isDisabled={busy !== null} onPress={() => void answer(r, "accept")}>
                  Accept
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ModalDialog isOpen={declining !== null} onOpenChange={(o) => !o && setDeclining(null)} title="Decline the request" dismissable role="alertdialog">
        <p>{declining ? askedFor(declining) : ""} If you decline, nothing is linked and the practice is told.</p>
        <div className="dialog-actions">
          <Button className="btn btn-ghost" onPress={() => setDeclining(null)}>
            Cancel
          </Button>
          <Button className="btn btn-primary" isDisabled={busy !== null} onPress={() => declining && void answer(declining, "decline")}>
            Decline
          </Button>
        </div>
      </ModalDialog>
    </section>
  );
}
