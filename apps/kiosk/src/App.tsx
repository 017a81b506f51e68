import { submissionActors } from "@crown/core/capture/submission";
import { DEFAULT_IDLE_TIMEOUT_MS, type KioskContext, type KioskEvent, type KioskState, kioskMachine, kioskSubmission, reachesServer } from "@crown/core/kiosk/machine";
import { useMachine } from "@xstate/react";
import { type ReactNode, useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { forgetDevice, kioskApi, storedDevice } from "./crown.ts";
import { useDeviceHeartbeat, useShotUrls } from "./hooks.ts";
import { useShowLanguage } from "./i18n/i18n.ts";
import { deviceLanguage } from "./i18n/language.ts";
import { LanguageToggle } from "./i18n/LanguageToggle.tsx";
import { idleTimeoutMs, useIdleTimeout, useLockdown } from "./lockdown.ts";
import { Attract } from "./screens/Attract.tsx";
import { Capture } from "./screens/Capture.tsx";
import { Done } from "./screens/Done.tsx";
import { Pairing } from "./screens/Pairing.tsx";
import { PatientChosen } from "./screens/PatientChosen.tsx";
import { PatientPicker } from "./screens/PatientPicker.tsx";
import { Review } from "./screens/Review.tsx";
import { Revoked } from "./screens/Revoked.tsx";
import { Uploading } from "./screens/Uploading.tsx";
import { uploadPorts } from "./uploader.ts";

/**
 * The kiosk: core's kiosk machine (core/src/kiosk/machine.ts) decides; this renders its state, one
 * screen per file (screens/), and sends it what the person, the camera and the server did.
 */

export function App() {
  useLockdown();
  const { t } = useTranslation("common");
  const stored = useMemo(storedDevice, []);
  // The upload child's calls read the session and the patient of the kiosk machine as it is (ADR 0161).
  const kiosk = useRef<{ context: () => KioskContext; send: (event: KioskEvent) => void } | null>(null);
  const machine = useMemo(
    () =>
      kioskMachine.provide({
        actors: {
          submission: kioskSubmission.provide({
            actors: submissionActors(uploadPorts(() => kiosk.current!.context(), (event) => kiosk.current?.send(event))),
          }),
        },
      }),
    [],
  );
  const [snapshot, send, actor] = useMachine(machine, {
    input: { device: stored?.device ?? null, idleTimeoutMs: idleTimeoutMs(DEFAULT_IDLE_TIMEOUT_MS), online: navigator.onLine },
  });
  kiosk.current = { context: () => actor.getSnapshot().context, send: (event) => actor.send(event) };
  const state = snapshot.value as KioskState;
  const context = snapshot.context;

  // The session's language, or the device's once the session is over (the machine forgets the choice).
  const language = context.language ?? deviceLanguage();
  useShowLanguage(language);
  const toggle = <LanguageToggle language={language} onChoose={(l) => send({ type: "CHOOSE_LANGUAGE", language: l })} />;

  // The network: said on screen, and an upload resumes by itself when it is back.
  useEffect(() => {
    const up = () => send({ type: "NETWORK_UP" });
    const down = () => send({ type: "NETWORK_DOWN" });
    window.addEventListener("online", up);
    window.addEventListener("offline", down);
    return () => {
      window.removeEventListener("online", up);
      window.removeEventListener("offline", down);
    };
  }, [send]);

  useDeviceHeartbeat(reachesServer(state), context.online, send);

  // A session that the machine wiped (idle, sign-out) is ended on the server too.
  const lastSession = useRef<string | null>(null);
  useEffect(() => {
    if (lastSession.current && lastSession.current !== context.session) void kioskApi.signOut(lastSession.current).catch(() => undefined);
    lastSession.current = context.session;
  }, [context.session]);

  // A revoked tablet forgets its credential: only a new pairing code brings it back.
  useEffect(() => {
    if (state === "revoked") forgetDevice();
  }, [state]);

  const urls = useShotUrls(context);

  // The machine says where the idle timeout applies (an upload in progress is never cut).
  useIdleTimeout(snapshot.can({ type: "IDLE_TIMEOUT" }), context.idleTimeoutMs, () => send({ type: "IDLE_TIMEOUT" }));

  // One screen per state of the machine; a new state without a screen does not compile.
  const screens: { readonly [S in KioskState]: () => ReactNode } = {
    starting: () => null,
    unpaired: () => <Pairing send={send} />,
    idle: () => <Attract context={context} send={send} />,
    signedIn: () => <PatientPicker context={context} send={send} />,
    patientChosen: () => <PatientChosen context={context} send={send} />,
    capturing: () => (
      <Capture
        taken={context.shots.length}
        onShot={(shot) => send({ type: "SHOT_TAKEN", shot })}
        onStop={() => send({ type: "STOP_CAPTURE" })}
        onCancel={() => send({ type: "CHANGE_PATIENT" })}
        languageToggle={toggle}
      />
    ),
    reviewing: () => <Review context={context} urls={urls} send={send} />,
    uploading: () => <Uploading context={context} />,
    done: () => <Done send={send} />,
    revoked: () => <Revoked revocation={context.revocation} />,
  };

  return (
    <main className={`kiosk state-${state}`} data-state={state}>
      {!context.online ? (
        <p className="offline" role="alert">
          {t("offline")}
        </p>
      ) : null}
      {/* On every screen of a session and where one starts; the camera's own bar carries it during capture. */}
      {state !== "starting" && state !== "capturing" && state !== "revoked" ? <div className="language-bar">{toggle}</div> : null}
      {screens[state]()}
    </main>
  );
}
