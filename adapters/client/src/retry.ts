/** The longest a call waits to come back after a 503 with Retry-After; longer asks are shown instead. */
const MAX_RETRY_WAIT_SECONDS = 5;

/**
 * Milliseconds to wait before sending again when the server shed the call (503 with Retry-After: refused on
 * arrival, before any work, so any method may be sent again, ADR 0100); null for any other answer.
 */
export const retryAfterRefusal = (res: { readonly status: number; readonly headers: { get(name: string): string | null } }): number | null => {
  if (res.status !== 503) return null;
  const seconds = Number(res.headers.get("Retry-After"));
  return Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_RETRY_WAIT_SECONDS ? seconds * 1000 : null;
};

/** Waits `ms`, or rejects as fetch does when `signal` aborts first. */
export const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    };
    const timer = setTimeout(resolve, ms);
    if (signal?.aborted) return abort();
    signal?.addEventListener("abort", abort, { once: true });
  });
