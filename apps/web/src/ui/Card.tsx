import type { ReactNode } from "react";

export function Card({ title, children, subtitle, wide }: { title: string; subtitle?: ReactNode; children: ReactNode; wide?: boolean }) {
  return (
    <section className={`card${wide ? " card-wide" : ""}`} aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      {subtitle ? <p className="card-subtitle">{subtitle}</p> : null}
      {children}
    </section>
  );
}
