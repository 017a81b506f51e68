import { usePendingRequests } from "../api/pending.ts";

/** The global loader: a thin bar at the top while any request is in flight (no layout shift). */
export function GlobalLoader() {
  const pending = usePendingRequests();
  return (
    <div className={`global-loader${pending > 0 ? " is-active" : ""}`} role="progressbar" aria-label="Loading" aria-hidden={pending === 0} aria-busy={pending > 0}>
      <div className="global-loader-bar" />
    </div>
  );
}

export function PageSpinner({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="page-spinner" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
