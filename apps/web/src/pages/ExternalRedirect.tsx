import { useEffect, useState } from "react";
import { request } from "../api/client.ts";
import { links } from "../config.ts";

/** /buy-kits and /webinar leave the portal for the addresses the server is configured with (GET /config). */
export default function ExternalRedirect({ to }: { to: "shop" | "webinar" }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    request<{ buy_kits_url?: string; webinar_url?: string }>("GET", "/config", { auth: false, quiet: true })
      .then((r) => (to === "shop" ? r.results.buy_kits_url : r.results.webinar_url) ?? links[to])
      .catch(() => links[to])
      .then((target) => {
        if (!live) return;
        setUrl(target);
        window.location.assign(target);
      });
    return () => {
      live = false;
    };
  }, [to]);
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">{to === "shop" ? "Opening the Crown shop…" : "Opening webinar booking…"}</h1>
      {url ? (
        <p>
          If nothing happens, <a href={url}>continue here</a>.
        </p>
      ) : null}
    </section>
  );
}
