import { type ReactNode, useState } from "react";

/** Phones: the width below which the consoles' tables become stacked cards (styles.css). */
const PHONE_QUERY = "(max-width: 640px)";

const onPhone = () => typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia(PHONE_QUERY).matches;

/**
 * One section of a console: a region named by its heading, whose heading is a button that folds the
 * section. On a wide screen every section starts open; on a phone only those marked `openOnPhone` (the
 * queues an admin acts on), so the console is a list of headings a tap away instead of a page about
 * 11,000 px tall (issue 46). Folded, a section keeps its state (its page, its search) and its data.
 * `head` sits beside the heading while the section is open (a search box).
 */
export function ConsoleSection(p: { readonly name: string; readonly title: ReactNode; readonly openOnPhone?: boolean; readonly head?: ReactNode; readonly id?: string; readonly children: ReactNode }) {
  const [open, setOpen] = useState(() => p.openOnPhone === true || !onPhone());
  const titleId = `${p.name}-title`;
  const bodyId = `${p.name}-body`;
  return (
    <section className={`panel console-section${open ? " open" : ""}`} aria-labelledby={titleId} id={p.id}>
      <div className="list-head console-section-head">
        <h2 id={titleId} className="console-section-title">
          <button type="button" className="console-section-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((o) => !o)}>
            <span>{p.title}</span>
            <svg className="console-section-chevron" viewBox="0 0 12 12" width="14" height="14" aria-hidden="true">
              <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.8" />
            </svg>
          </button>
        </h2>
        {p.head ? (
          <div className="console-section-tools" hidden={!open}>
            {p.head}
          </div>
        ) : null}
      </div>
      <div id={bodyId} className="console-section-body" hidden={!open}>
        {p.children}
      </div>
    </section>
  );
}
