import { useSyncExternalStore } from "react";

/** How many requests are in flight: the global loader shows while this is above zero. */
let pending = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const requestStarted = () => {
  pending += 1;
  emit();
};
export const requestEnded = () => {
  pending = Math.max(0, pending - 1);
  emit();
};
export const usePendingRequests = () =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => pending,
  );
