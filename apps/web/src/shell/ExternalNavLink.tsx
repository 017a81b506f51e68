import type { ReactNode } from "react";
import { type PublicConfig, usePublicConfig } from "../api/publicConfig.ts";

/** The portal routes that stand for an external page, and the setting (GET /config) that names it. */
const EXTERNAL_TARGETS: Readonly<Record<string, keyof PublicConfig>> = {
  "/buy-kits": "buy_kits_url",
  "/webinar": "webinar_url",
};

/**
 * Buy Kits and Webinar open the shop or the booking page itself in a new tab: the new tab never
 * goes through a signed-in portal route. Until the settings arrive the portal route stands in.
 */
export function ExternalNavLink({ to, children, onClick }: { to: string; children: ReactNode; onClick?: () => void }) {
  const config = usePublicConfig();
  const key = EXTERNAL_TARGETS[to];
  const href = (key && config?.[key]) || to;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" onClick={onClick}>
      {children}
    </a>
  );
}
