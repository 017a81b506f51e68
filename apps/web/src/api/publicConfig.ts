import { useEffect, useState } from "react";
import { crown } from "./crown.ts";
import type { Api, ResultsOf } from "./wire.ts";

/**
 * The server's public settings (GET /config): where /buy-kits and /webinar lead, and the optional
 * app store pages and referral-code video. Optional ones are absent when the server has none, and
 * the portal then shows no link at all (never a guessed address).
 */
export type PublicConfig = ResultsOf<Api["config"]["$get"]>;

let pending: Promise<PublicConfig> | null = null;
let loaded: PublicConfig | null = null;

/** Fetched once per page load (and again after a failure), shared by every caller. */
export const loadPublicConfig = (): Promise<PublicConfig> => {
  pending ??= crown.call((api) => api.config.$get(), { auth: false, quiet: true })
    .then((r) => {
      loaded = r.results ?? {};
      return loaded;
    })
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
};

/** The settings, or null until they arrive (or when the server cannot be reached). */
export const usePublicConfig = (): PublicConfig | null => {
  const [config, setConfig] = useState<PublicConfig | null>(loaded);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    loadPublicConfig()
      .then((c) => live && setConfig(c))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return config;
};
