import { useSelector } from "@xstate/react";
import { configureApi } from "../api/client.ts";
import type { Baby } from "../api/types.ts";
import { createSessionActor, type Session } from "../machines/session.ts";

/** The one session actor of the tab, reachable from React (through @xstate/react) and from the API client. */
export const sessionActor = createSessionActor();
sessionActor.start();

configureApi({
  getToken: () => sessionActor.getSnapshot().context.session?.token ?? null,
  onUnauthorised: (message) => {
    if (sessionActor.getSnapshot().matches("signedIn")) sessionActor.send({ type: "UNAUTHORISED", message });
  },
});

export const useSession = (): Session | null => useSelector(sessionActor, (s) => s.context.session);
export const useLists = () => useSelector(sessionActor, (s) => s.context.lists);
export const useNotice = () => useSelector(sessionActor, (s) => s.context.notice);
export const updateSession = (patch: Partial<Session>) => sessionActor.send({ type: "UPDATE", patch });

export const selectedBaby = (s: Session | null): Baby | null =>
  s ? (s.babies.find((b) => b.identifier === s.selectedBabyId) ?? s.babies[0] ?? null) : null;

/** Results are shown to a parent only when the selected baby has a physician other than 'No Physician'. */
export const babyHasPhysician = (b: Baby | null): boolean =>
  Boolean(b?.physician && b.physician.identifier !== "no-physician" && b.physician.name.trim().toLowerCase() !== "no physician");
