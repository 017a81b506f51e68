import { useSyncExternalStore } from "react";

/** Notification toasts: they hide after 6000 ms (spec section 9) or when dismissed. */
export const TOAST_MS = 6000;

export interface Toast {
  readonly id: number;
  readonly text: string;
  readonly tone: "success" | "error" | "info";
}

let toasts: ReadonlyArray<Toast> = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const dismissToast = (id: number) => {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
};

export const toast = (text: string, tone: Toast["tone"] = "info") => {
  const id = nextId++;
  toasts = [...toasts, { id, text, tone }];
  emit();
  window.setTimeout(() => dismissToast(id), TOAST_MS);
};

export const clearToasts = () => {
  toasts = [];
  emit();
};

export function ToastRegion() {
  const list = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
  );
  return (
    <div className="toasts" aria-live="polite" role="region" aria-label="Notifications">
      {list.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`} role={t.tone === "error" ? "alert" : "status"}>
          <span>{t.text}</span>
          <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
