import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { FormMessage } from "../ui/fields.tsx";
import { toast } from "../ui/toasts.tsx";
import { chooseConsent, type ConsentChild, type ConsentChoice, consentAsked, type Consents, forChild, researchConsents } from "./api.ts";

/** The text a parent reads before choosing, in the account's language (the server's, versioned). */
function ConsentText({ consents, child }: { consents: Consents; child: ConsentChild }) {
  return (
    <>
      {consents.text.paragraphs.map((p, i) => (
        <p key={i}>{forChild(p, child)}</p>
      ))}
    </>
  );
}

/**
 * The parent's research consents, read again whenever `key` changes and after every choice: `run`
 * makes a choice's call, busy meanwhile, says its answer (returned) or its failure.
 */
function useConsents(key: unknown, readFailed: (e: unknown) => void) {
  const [consents, setConsents] = useState<Consents | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    researchConsents()
      .then((r) => setConsents(r.results))
      .catch(readFailed);
  }, [key]);
  const run = async (call: () => Promise<{ message: string }>): Promise<string | null> => {
    let message: string | null = null;
    setBusy(true);
    try {
      message = (await call()).message;
      toast(message, "success");
      setConsents((await researchConsents()).results);
    } catch (e) {
      toast(messageOf(e), "error");
    } finally {
      setBusy(false);
    }
    return message;
  };
  return { consents, busy, run };
}

/**
 * In the profile, under a child: the choice as it stands and the buttons to change it. A withdrawal
 * answers what it removed, which stays on screen.
 */
export function ResearchConsentSection({ babyId }: { babyId: string }) {
  const { t } = useTranslation("profile");
  const [said, setSaid] = useState<string | null>(null);
  const { consents, busy, run } = useConsents(babyId, (e) => toast(messageOf(e), "error"));
  useEffect(() => setSaid(null), [babyId]);
  const child = consents?.children.find((c) => c.baby_identifier === babyId);
  if (!consents || !child) return null;
  const choose = async (choice: ConsentChoice) => {
    const message = await run(() => chooseConsent(babyId, choice));
    if (message) setSaid(message);
  };
  return (
    <section className="consent-section" aria-labelledby="consent-title">
      <h3 id="consent-title">{consents.text.title}</h3>
      <ConsentText consents={consents} child={child} />
      <p>
        <strong>{t(`consent.state.${child.choice ?? "none"}`, { name: forChild("{name}", child) })}</strong>
      </p>
      {said ? <FormMessage tone="info">{said}</FormMessage> : null}
      <div className="page-actions">
        {child.choice === "granted" ? (
          <Button className="btn btn-secondary" isDisabled={busy} onPress={() => void choose("withdrawn")}>
            {t("consent.withdraw")}
          </Button>
        ) : (
          <>
            <Button className="btn btn-primary" isDisabled={busy} onPress={() => void choose("granted")}>
              {forChild(consents.text.grant, child)}
            </Button>
            {child.choice !== "declined" && child.choice !== "withdrawn" ? (
              <Button className="btn btn-secondary" isDisabled={busy} onPress={() => void choose("declined")}>
                {forChild(consents.text.decline, child)}
              </Button>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

/**
 * Asked once, after a child's first published report: grant, decline, or "Not now" (off, never asked
 * again). A panel at the top of Results, not a modal: the report itself stays within reach.
 */
export function ResearchConsentPrompt() {
  const { t } = useTranslation("profile");
  // Consents that cannot be read leave the panel out: Results shows without it.
  const { consents, busy, run: done } = useConsents(null, () => undefined);
  const child = consents?.children.find((c) => c.ask);
  if (!consents || !child) return null;
  return (
    <section className="consent-prompt" aria-labelledby="consent-prompt-title">
      <h2 id="consent-prompt-title">{consents.text.title}</h2>
      <ConsentText consents={consents} child={child} />
      <p className="muted small">{t("consent.changeLater")}</p>
      <div className="page-actions">
        <Button className="btn btn-primary" isDisabled={busy} onPress={() => void done(() => chooseConsent(child.baby_identifier, "granted"))}>
          {forChild(consents.text.grant, child)}
        </Button>
        <Button className="btn btn-secondary" isDisabled={busy} onPress={() => void done(() => chooseConsent(child.baby_identifier, "declined"))}>
          {forChild(consents.text.decline, child)}
        </Button>
        <Button className="btn btn-secondary" isDisabled={busy} onPress={() => void done(() => consentAsked(child.baby_identifier))}>
          {t("consent.notNow")}
        </Button>
      </div>
    </section>
  );
}
