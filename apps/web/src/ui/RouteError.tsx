import { Component, type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";

const RELOAD_KEY = "crown.reloadedForChunk";

/** A route that failed to load. After a new release the old chunk names are gone: reload once to get the new ones. */
export function RouteError({ error }: { readonly error: unknown }) {
  // Its words are in `common`, loaded before any screen: a chunk that failed to load cannot take them with it.
  const { t } = useTranslation();
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
        <h1 id="page-title">{t("routeError.title")}</h1>
        <p>{staleChunk ? t("routeError.updated") : t("routeError.failed")}</p>
        <div className="form-actions">
          <button type="button" className="btn btn-secondary" onClick={() => window.location.reload()}>
            {t("routeError.reload")}
          </button>
          <Link className="btn btn-primary" to="/">
            {t("routeError.signIn")}
          </Link>
        </div>
      </section>
    </main>
  );
}

interface BoundaryProps {
  readonly children: ReactNode;
  readonly path: string;
}

/** Catches what a layout or its page throws (a chunk that failed to load, a render error) until the path changes. */
class Boundary extends Component<BoundaryProps, { error: unknown; path: string | null }> {
  override state: { error: unknown; path: string | null } = { error: null, path: null };
  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error("Unknown error") };
  }
  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; path: string | null }) {
    // The error belongs to the page it happened on: moving elsewhere shows that page again.
    if (state.error === null) return null;
    if (state.path === null) return { path: props.path };
    return state.path === props.path ? null : { error: null, path: null };
  }
  override render() {
    return this.state.error === null ? this.props.children : <RouteError error={this.state.error} />;
  }
}

/** The error screen around a group of routes (the router's declarative mode has no `errorElement`; ADR 74). */
export function RouteBoundary({ children }: { readonly children: ReactNode }) {
  return <Boundary path={useLocation().pathname}>{children}</Boundary>;
}

/** A page that loaded fine clears the one-reload guard. */
export const clearReloadGuard = () => sessionStorage.removeItem(RELOAD_KEY);
