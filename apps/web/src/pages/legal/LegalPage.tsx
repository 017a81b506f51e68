import type { ReactNode } from "react";
import { Link } from "react-router-dom";

export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <article className="card card-wide legal" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <p className="muted small">Last updated {updated}</p>
      {children}
      <p className="center">
        <Link to="/">Back to Sign In</Link>
      </p>
    </article>
  );
}
