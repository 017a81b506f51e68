import type { KioskContext } from "@crown/core/kiosk/machine";
import { useEffect, useRef } from "react";
import { ApiError, deviceRefused, kioskApi, revokedFor, sessionEnded } from "./crown.ts";
import type { Send } from "./screens/shared.tsx";

/** Often enough that a revoked tablet wipes itself "at once" (within seconds), whatever it is doing. */
const HEARTBEAT_MS = 3000;

/**
 * Asks the server every few seconds, in every state, whether the tablet is still enrolled: a revocation
 * wipes the screen even during capture or review, when no other call would tell. An unanswered
 * heartbeat also tells the screen that the network (or the server) is down, and an answer that it is back.
 */
export const useDeviceHeartbeat = (active: boolean, online: boolean, send: Send) => {
  const onlineRef = useRef(online);
  onlineRef.current = online;
  useEffect(() => {
    if (!active) return;
    let live = true;
    let timer: number | undefined;
    let pending = false;
    const abort = new AbortController();
    const beat = async () => {
      if (pending) return;
      pending = true;
      window.clearTimeout(timer);
      try {
        await kioskApi.status(abort.signal);
        if (live && !onlineRef.current) send({ type: "NETWORK_UP" });
      } catch (e) {
        if (!live) return;
        // 403 DeviceRevoked (with its when and why), or 401: the credential is no longer known. Either way the tablet is not enrolled.
        if (deviceRefused(e) || sessionEnded(e)) return send(revokedFor(e));
        if (e instanceof ApiError && e.offline && onlineRef.current) send({ type: "NETWORK_DOWN" });
      } finally {
        pending = false;
      }
      if (live) timer = window.setTimeout(beat, HEARTBEAT_MS);
    };
    // A tablet waking from sleep checks at once rather than at the next beat.
    const onVisible = () => document.visibilityState === "visible" && void beat();
    void beat();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      live = false;
      abort.abort();
      window.clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [active, send]);
};

/** Shots are blobs behind object URLs: each made once, and released when the machine drops its shot. */
export const useShotUrls = (context: KioskContext) => {
  const cache = useRef(new Map<string, string>());
  const live = new Set(context.shots.map((s) => s.id));
  for (const [id, url] of cache.current) {
    if (!live.has(id)) {
      URL.revokeObjectURL(url);
      cache.current.delete(id);
    }
  }
  for (const shot of context.shots) {
    if (!cache.current.has(shot.id) && shot.image instanceof Blob) cache.current.set(shot.id, URL.createObjectURL(shot.image));
  }
  return cache.current;
};
