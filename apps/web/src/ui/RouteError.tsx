import { useEffect } from "react";
import { Link, useRouteError } from "react-router-dom";

const RELOAD_KEY = "crown.reloadedForChunk";

/** A route that failed to load. After a new release the old chunk names are gone: reload once to get the new ones. */
export function RouteError() {
  const error = useRouteError();
  const text = error instanceof Error ? error.message : String(error ?? "");
  const staleChunk = /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(text);
  useEffect(() => {
    if (staleChunk && !sessionStorage.getItem(RELOAD_KEY)) {
      sessionStorage.setItem(RELOAD_KEY, "1");
      window.location.reload();
    }
  }, [staleChunk]);
  return (
    <main className="app-main" id="main">
      <section className="card" aria-labelledby="page-title">
        <h1 id="page-title">Something went wrong</h1>
        <p>{staleChunk ? "Crown was just updated. Please reload the page." : "This page could not be shown. Please try again."}</p>
        <div className="form-actions">
          <button type="button" className="btn btn-secondary" onClick={() => window.location.reload()}>
            Reload
          </button>
          <Link className="btn btn-primary" to="/">
            Go to Sign In
          </Link>
        </div>
      </section>
    </main>
  );
}

/** A page that loaded fine clears the one-reload guard. */
export const clearReloadGuard = () => sessionStorage.removeItem(RELOAD_KEY);
