import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { verifyEmail } from "../api/account-pages.ts";
import { messageOf } from "../api/crown.ts";
import { FormMessage } from "../ui/fields.tsx";
import { Card } from "../ui/Card.tsx";
import { PageSpinner } from "../ui/Loader.tsx";

/** A message of null is the screen's own (said in the current language), else the server's. */
type State = { kind: "waiting" } | { kind: "done"; message: string | null } | { kind: "failed"; message: string | null };

export default function VerifyEmail() {
  const { t } = useTranslation("account");
  const [params] = useSearchParams();
  const [state, setState] = useState<State>({ kind: "waiting" });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // the link works once: never call it twice (StrictMode mounts twice)
    started.current = true;
    const id = params.get("id") ?? "";
    const token = params.get("token") ?? "";
    const expires = params.get("expires") ?? "";
    const signature = params.get("signature") ?? "";
    if (!id || !token || !expires || !signature) {
      setState({ kind: "failed", message: null });
      return;
    }
    verifyEmail(id, token, expires, signature)
      .then((r) => setState({ kind: "done", message: r.message || null }))
      .catch((e) => setState({ kind: "failed", message: messageOf(e) }));
  }, [params]);

  return (
    <Card title={t("verify.title")}>
      {state.kind === "waiting" ? <PageSpinner label={t("verify.waiting")} /> : null}
      {state.kind === "done" ? (
        <div className="confirmation">
          <FormMessage tone="success">{state.message ?? t("verify.verified")}</FormMessage>
          <Link to="/" className="btn btn-primary">
            {t("verify.signIn")}
          </Link>
        </div>
      ) : null}
      {state.kind === "failed" ? (
        <div className="confirmation">
          <FormMessage tone="error">{state.message ?? t("verify.invalid")}</FormMessage>
          <Link to="/resend-verification-link" className="btn btn-secondary">
            {t("verify.resend")}
          </Link>
        </div>
      ) : null}
    </Card>
  );
}
