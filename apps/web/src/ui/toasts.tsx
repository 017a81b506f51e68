import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";

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
  const { t } = useTranslation();
  const list = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
  );
  return (
    <div className="toasts" aria-live="polite" role="region" aria-label={t("shell.toasts")}>
      {list.map((item) => (
        <div key={item.id} className={`toast toast-${item.tone}`} role={item.tone === "error" ? "alert" : "status"}>
          <span>{item.text}</span>
          <button type="button" className="toast-close" aria-label={t("shell.dismiss")} onClick={() => dismissToast(item.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
