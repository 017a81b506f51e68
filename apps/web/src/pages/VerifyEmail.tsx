import { useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { verifyEmail } from "../api/accounts.ts";
import { messageOf } from "../api/client.ts";
import { FormMessage } from "../ui/fields.tsx";
import { Card } from "../ui/Card.tsx";
import { PageSpinner } from "../ui/Loader.tsx";

type State = { kind: "waiting" } | { kind: "done"; message: string } | { kind: "failed"; message: string };

export default function VerifyEmail() {
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
      setState({ kind: "failed", message: "This verification link is invalid or has expired." });
      return;
    }
    verifyEmail(id, token, expires, signature)
      .then((r) => setState({ kind: "done", message: r.message || "Your email has been verified." }))
      .catch((e) => setState({ kind: "failed", message: messageOf(e) }));
  }, [params]);

  return (
    <Card title="Email verification">
      {state.kind === "waiting" ? <PageSpinner label="Please wait while we verify your email…" /> : null}
      {state.kind === "done" ? (
        <div className="confirmation">
          <FormMessage tone="success">{state.message}</FormMessage>
          <Link to="/" className="btn btn-primary">
            Sign In
          </Link>
        </div>
      ) : null}
      {state.kind === "failed" ? (
        <div className="confirmation">
          <FormMessage tone="error">{state.message}</FormMessage>
          <Link to="/resend-verification-link" className="btn btn-secondary">
            Resend verification link
          </Link>
        </div>
      ) : null}
    </Card>
  );
}
