import { useEffect } from "react";
import { links } from "../config.ts";

/** /buy-kits and /webinar leave the portal for the shop and the meeting-booking page. */
export default function ExternalRedirect({ to }: { to: "shop" | "webinar" }) {
  const url = links[to];
  useEffect(() => {
    window.location.assign(url);
  }, [url]);
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">{to === "shop" ? "Opening the Crown shop…" : "Opening webinar booking…"}</h1>
      <p>
        If nothing happens, <a href={url}>continue here</a>.
      </p>
    </section>
  );
}
