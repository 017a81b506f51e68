import { useEffect, useState } from "react";
import type { TFunction } from "i18next";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { getProfile } from "../api/account-pages.ts";
import { staffPhysicians } from "../api/onboarding.ts";
import { messageOf } from "../api/crown.ts";
import { day } from "../i18n/dates.ts";
import { sessionActor, updateSession } from "../session/store.ts";
import { ModalDialog } from "../ui/dialogs.tsx";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { answerLinkRequest, type LinkRequest, linkRequests } from "./api.ts";

/** What the practice asks, in the invitee's words (an unknown staff type reads as a nurse, the default role). */
const askedFor = (t: TFunction<"practice">, r: LinkRequest) =>
  r.baby
    ? t("linkRequests.askBaby", { physician: r.physician.name, baby: r.baby.name, born: day(r.baby.date_of_birth) })
    : t("linkRequests.askStaff", { physician: r.physician.name, type: r.staff_type ?? "nurse" });

const afterAccepting = (t: TFunction<"practice">, r: LinkRequest) =>
  r.baby ? t("linkRequests.acceptedBaby", { baby: r.baby.name }) : t("linkRequests.acceptedStaff", { physician: r.physician.name });

/**
 * /link-requests: a practice's requests awaiting the signed-in parent's or staff member's answer
 * (issue 15, ADR 56). Nothing is linked until the person accepts here; the bell and the e-mail lead here.
 */
export default function LinkRequests() {
  const { t } = useTranslation("practice");
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
      toast(choice === "accept" ? afterAccepting(t, r) : t("linkRequests.declined"), "success");
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
      <h1 id="page-title">{t("linkRequests.title")}</h1>
      <p className="card-subtitle">{t("linkRequests.subtitle")}</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">{t("linkRequests.empty")}</p>
      ) : (
        <ul className="link-requests" aria-label={t("linkRequests.list")}>
          {rows.map((r) => (
            <li key={r.identifier} className="card link-request">
              <p>{askedFor(t, r)}</p>
              <p className="muted">{t("linkRequests.askedOn", { date: day(r.created_at.slice(0, 10)) })}</p>
              <div className="form-actions">
                <Button className="btn btn-ghost" isDisabled={busy !== null} onPress={() => setDeclining(r)}>
                  {t("linkRequests.decline")}
                </Button>
                <Button className="btn btn-primary" isDisabled={busy !== null} onPress={() => void answer(r, "accept")}>
                  {t("linkRequests.accept")}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ModalDialog isOpen={declining !== null} onOpenChange={(o) => !o && setDeclining(null)} title={t("linkRequests.declineTitle")} dismissable role="alertdialog">
        <p>{declining ? askedFor(t, declining) : ""} {t("linkRequests.declineText")}</p>
        <div className="dialog-actions">
          <Button className="btn btn-ghost" onPress={() => setDeclining(null)}>
            {t("linkRequests.cancel")}
          </Button>
          <Button className="btn btn-primary" isDisabled={busy !== null} onPress={() => declining && void answer(declining, "decline")}>
            {t("linkRequests.decline")}
          </Button>
        </div>
      </ModalDialog>
    </section>
  );
}
