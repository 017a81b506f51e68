import { type ReactNode, useId, useState } from "react";

/** One collapsible panel of the instruction list: a button toggles the region open and closed. */
export function Collapsible(p: { readonly title: ReactNode; readonly number?: number | string; readonly defaultOpen?: boolean; readonly children: ReactNode; readonly tone?: "notice" }) {
  const [open, setOpen] = useState(p.defaultOpen ?? true);
  const id = useId();
  return (
    <li className={`step${open ? " open" : ""}${p.tone ? ` step-${p.tone}` : ""}`}>
      <h2 className="step-heading">
        <button type="button" className="step-toggle" aria-expanded={open} aria-controls={`${id}-panel`} id={`${id}-button`} onClick={() => setOpen((o) => !o)}>
          {p.number !== undefined ? (
            <span className="step-number" aria-hidden="true">
              {p.number}
            </span>
          ) : null}
          <span className="step-title">{p.title}</span>
          <svg className="step-chevron" viewBox="0 0 12 12" width="14" height="14" aria-hidden="true">
            <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.8" />
          </svg>
        </button>
      </h2>
      <div className="step-panel" id={`${id}-panel`} role="region" aria-labelledby={`${id}-button`} hidden={!open}>
        {p.children}
      </div>
    </li>
  );
}
