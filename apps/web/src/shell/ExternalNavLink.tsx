import type { ReactNode } from "react";
import { NavLink } from "react-router-dom";
import { type PublicConfig, usePublicConfig } from "../api/publicConfig.ts";

/** The portal routes that stand for an external page, and the setting (GET /config) that names it. */
const EXTERNAL_TARGETS: Readonly<Record<string, keyof PublicConfig>> = {
  "/buy-kits": "buy_kits_url",
  "/webinar": "webinar_url",
};

/**
 * Buy Kits and Webinar: with the operator's address set, the shop or the booking page itself in a new
 * tab (the new tab never goes through a signed-in portal route). Without it, or until the settings
 * arrive, Crown's own page in this tab (issue 46: never an example address).
 */
export function ExternalNavLink({ to, children, onClick }: { to: string; children: ReactNode; onClick?: () => void }) {
  const config = usePublicConfig();
  const key = EXTERNAL_TARGETS[to];
  const href = key ? config?.[key] : undefined;
  if (!href)
    return (
      <NavLink to={to} onClick={onClick}>
        {children}
      </NavLink>
    );
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" onClick={onClick}>
      {children}
    </a>
  );
}
