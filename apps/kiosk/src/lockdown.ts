import { useEffect, useRef } from "react";

/**
 * The kiosk's lock-down: full screen on the first touch, the back button trapped, no context menu,
 * no drag-out of images, and links to other sites refused. The browser's own chrome stays hidden
 * when the app is installed from its manifest (display: fullscreen).
 */
export const useLockdown = () => {
  useEffect(() => {
    const goFullscreen = () => {
      if (!document.fullscreenElement && document.documentElement.requestFullscreen) {
        document.documentElement.requestFullscreen({ navigationUI: "hide" }).catch(() => undefined);
      }
    };
    // Back navigation: every step back is undone, so the flow never leaves the kiosk.
    history.pushState({ kiosk: true }, "", location.href);
    const onPop = () => history.pushState({ kiosk: true }, "", location.href);
    const noMenu = (e: Event) => e.preventDefault();
    const noExternal = (e: MouseEvent) => {
      const a = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (a && new URL(a.href, location.href).origin !== location.origin) e.preventDefault();
    };
    window.addEventListener("pointerdown", goFullscreen);
    window.addEventListener("popstate", onPop);
    window.addEventListener("contextmenu", noMenu);
    window.addEventListener("dragstart", noMenu);
    window.addEventListener("click", noExternal, true);
    return () => {
      window.removeEventListener("pointerdown", goFullscreen);
      window.removeEventListener("popstate", onPop);
      window.removeEventListener("contextmenu", noMenu);
      window.removeEventListener("dragstart", noMenu);
      window.removeEventListener("click", noExternal, true);
    };
  }, []);
};

/** Calls `onIdle` after `ms` without a touch, key or pointer move while `active`. */
export const useIdleTimeout = (active: boolean, ms: number, onIdle: () => void) => {
  const callback = useRef(onIdle);
  callback.current = onIdle;
  useEffect(() => {
    if (!active) return;
    let timer = window.setTimeout(() => callback.current(), ms);
    const reset = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => callback.current(), ms);
    };
    const events = ["pointerdown", "pointermove", "keydown", "touchstart", "wheel"] as const;
    for (const e of events) window.addEventListener(e, reset, { passive: true });
    return () => {
      window.clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, reset);
    };
  }, [active, ms]);
};

/** The idle timeout: `?idle=<seconds>` in the kiosk's address (set once at install), default 2 minutes. */
export const idleTimeoutMs = (fallback: number) => {
  const seconds = Number(new URLSearchParams(location.search).get("idle"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : fallback;
};
