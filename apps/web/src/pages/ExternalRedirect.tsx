import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { messageOf } from "../api/client.ts";
import { loadPublicConfig } from "../api/publicConfig.ts";
import { FormMessage } from "../ui/fields.tsx";

/** /buy-kits and /webinar leave the portal for the addresses the server is configured with (GET /config). */
export default function ExternalRedirect({ to }: { to: "shop" | "webinar" }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    loadPublicConfig()
      .then((c) => {
        const target = to === "shop" ? c.buy_kits_url : c.webinar_url;
        if (!live) return;
        if (!target) {
          setError(to === "shop" ? "The Crown shop is not available right now." : "Webinar booking is not available right now.");
          return;
        }
        setUrl(target);
        window.location.assign(target);
      })
      .catch((e: unknown) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [to, attempt]);
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">{to === "shop" ? "Opening the Crown shop…" : "Opening webinar booking…"}</h1>
      {error ? (
        <>
          <FormMessage tone="error">{error}</FormMessage>
          <Button className="btn btn-secondary" onPress={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        </>
      ) : url ? (
        <p>
          If nothing happens, <a href={url}>continue here</a>.
        </p>
      ) : (
        <p>One moment, please.</p>
      )}
    </section>
  );
}
