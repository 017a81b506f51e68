import { CalendarDays, check, PATIENT_MAX_AGE_MONTHS, PatientRequest } from "@crown/core";
import { DEFAULT_IDLE_TIMEOUT_MS, type KioskContext, type KioskEvent, kioskMachine, type KioskPatient, MIN_KIOSK_SHOTS } from "@crown/core/kiosk/machine";
import { useMachine } from "@xstate/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Button, Input, Label, TextField } from "react-aria-components";
import { ApiError, type DeviceOverview, forgetDevice, kioskApi, type Patient, storedDevice, storeDevice } from "./api.ts";
import { Capture } from "./Capture.tsx";
import { createQrReader } from "./qr.ts";
import { idleTimeoutMs, useIdleTimeout, useLockdown } from "./lockdown.ts";
import { cancelUpload, runUpload } from "./uploader.ts";

type Send = (event: KioskEvent) => void;

/** What a failed call means for the tablet: revoked, session over, or a message to show. */
const handleFailure = (error: unknown, send: Send, show: (message: string) => void) => {
  if (error instanceof ApiError && error.deviceRefused) return send({ type: "REVOKED" });
  if (error instanceof ApiError && error.status === 401) return send({ type: "SESSION_ENDED" });
  if (error instanceof ApiError && error.offline) return show("The network is down. Please try again when it is back.");
  show(error instanceof Error ? error.message : "Some error occurred");
};

export function App() {
  useLockdown();
  const stored = useMemo(storedDevice, []);
  const machine = useMemo(
    () =>
      kioskMachine.provide({
        actions: {
          startUpload: ({ context, self }) => void runUpload(context, (e) => self.send(e)),
          resumeUpload: ({ context, self }) => void runUpload(context, (e) => self.send(e)),
          cancelUpload: () => cancelUpload(),
        },
      }),
    [],
  );
  const [snapshot, send] = useMachine(machine, {
    input: { device: stored?.device ?? null, idleTimeoutMs: idleTimeoutMs(DEFAULT_IDLE_TIMEOUT_MS), online: navigator.onLine },
  });
  const state = String(snapshot.value);
  const context = snapshot.context;

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

  useDeviceHeartbeat(state !== "starting" && state !== "unpaired" && state !== "revoked", context.online, send);

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

  // Shots are blobs behind object URLs: released when the machine drops them.
  const urls = useShotUrls(context);

  useIdleTimeout(["signedIn", "patientChosen", "capturing", "reviewing", "done"].includes(state), context.idleTimeoutMs, () => send({ type: "IDLE_TIMEOUT" }));

  return (
    <main className={`kiosk state-${state}`} data-state={state}>
      {!context.online ? (
        <p className="offline" role="alert">
          The network is down. Photos waiting to be sent stay on this tablet only until they are sent; the upload resumes by itself.
        </p>
      ) : null}
      {state === "unpaired" ? <Pairing send={send} /> : null}
      {state === "idle" ? <Attract context={context} send={send} /> : null}
      {state === "signedIn" ? <PatientPicker context={context} send={send} /> : null}
      {state === "patientChosen" ? <PatientChosen patient={context.patient!} staff={context.staff?.name ?? ""} send={send} /> : null}
      {state === "capturing" ? (
        <Capture
          taken={context.shots.length}
          onShot={(shot) => send({ type: "SHOT_TAKEN", shot })}
          onStop={() => send({ type: "STOP_CAPTURE" })}
          onCancel={() => send({ type: "CHANGE_PATIENT" })}
        />
      ) : null}
      {state === "reviewing" ? <Review context={context} urls={urls} send={send} /> : null}
      {state === "uploading" ? <Uploading context={context} /> : null}
      {state === "done" ? <Done send={send} /> : null}
      {state === "revoked" ? <Revoked /> : null}
    </main>
  );
}

/** Often enough that a revoked tablet wipes itself "at once" (within seconds), whatever it is doing. */
const HEARTBEAT_MS = 3000;

/**
 * Asks the server every few seconds, in every state, whether the tablet is still enrolled: a revocation
 * wipes the screen even during capture or review, when no other call would tell. An unanswered
 * heartbeat also tells the screen that the network (or the server) is down, and an answer that it is back.
 */
const useDeviceHeartbeat = (active: boolean, online: boolean, send: Send) => {
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
        // 403 DeviceRevoked, or 401: the credential is no longer known. Either way the tablet is not enrolled.
        if (e instanceof ApiError && (e.deviceRefused || e.status === 401)) return send({ type: "REVOKED" });
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

const useShotUrls = (context: KioskContext) => {
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

function Header({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <header className="kiosk-header">
      <h1>{title}</h1>
      {subtitle ? <p>{subtitle}</p> : null}
    </header>
  );
}

function Pairing({ send }: { send: Send }) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const pair = async () => {
    setPending(true);
    setError(null);
    try {
      const result = await kioskApi.pair(code);
      storeDevice({ credential: result.device_credential, device: result.device });
      send({ type: "PAIRED", device: result.device });
    } catch (e) {
      setError(e instanceof ApiError && e.offline ? "The network is down. Please try again when it is back." : e instanceof Error ? e.message : "Some error occurred");
    } finally {
      setPending(false);
    }
  };
  return (
    <section className="panel narrow">
      <Header title="Enrol this tablet" subtitle="Enter the 8-character pairing code from the Crown portal (valid for 15 minutes)." />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void pair();
        }}
      >
        <TextField validationBehavior="aria" value={code} onChange={(v) => setCode(v.toUpperCase())} isInvalid={!!error} autoFocus>
          <Label>Pairing code</Label>
          <Input className="code-input" autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={12} data-testid="pairing-code" />
        </TextField>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        <Button type="submit" className="big" isDisabled={pending || code.replace(/[\s-]/g, "").length < 8}>
          Enrol tablet
        </Button>
      </form>
    </section>
  );
}

/** The attract screen: the practice, and the staff who can sign in with their PIN. */
function Attract({ context, send }: { context: KioskContext; send: Send }) {
  const [overview, setOverview] = useState<DeviceOverview | null>(null);
  const [picked, setPicked] = useState<{ identifier: string; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      kioskApi
        .device()
        .then((o) => live && (setOverview(o), setError(null)))
        .catch((e) => live && handleFailure(e, send, setError));
    void load();
    // Refreshes who can sign in (a PIN set meanwhile); revocation is the heartbeat's job.
    const timer = window.setInterval(load, 30_000);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [send]);
  if (picked) return <PinPad staff={picked} send={send} onBack={() => setPicked(null)} />;
  return (
    <section className="attract">
      <Header title="Crown head-shape scan" subtitle={`${context.device?.name ?? ""} · ${overview?.practice ?? context.device?.practice ?? ""}`} />
      <p className="lead">Tap your name to sign in with your PIN.</p>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="tiles">
        {(overview?.staff ?? []).map((s) => (
          <Button key={s.identifier} className="tile" onPress={() => setPicked(s)}>
            {s.name}
          </Button>
        ))}
        {overview && overview.staff.length === 0 ? <p>
            No one has set a kiosk PIN yet. Physicians and their staff set one in the Crown portal at {`${location.origin}/kiosk-settings`}, under “My kiosk PIN”.
          </p> : null}
      </div>
    </section>
  );
}

function PinPad({ staff, send, onBack }: { staff: { identifier: string; name: string }; send: Send; onBack: () => void }) {
  const [pin, setPin] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async () => {
    setPending(true);
    setError(null);
    try {
      const result = await kioskApi.signIn(staff.identifier, pin);
      send({ type: "SIGNED_IN", staff: result.staff, session: result.token });
    } catch (e) {
      setPin("");
      handleFailure(e, send, setError);
    } finally {
      setPending(false);
    }
  };
  const press = (d: string) => setPin((p) => (p.length < 8 ? p + d : p));
  return (
    <section className="panel narrow pinpad">
      <Header title={`Hello, ${staff.name}`} subtitle="Enter your kiosk PIN" />
      <p className="pin-dots" data-testid="pin-dots">
        <span aria-hidden="true">{pin.length > 0 ? "●".repeat(pin.length) : "\u00a0"}</span>
        <span className="visually-hidden">{pin.length} digits entered</span>
      </p>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="keys">
        {["1", "2", "3", "4", "5", "6", "7", "8", "9"].map((d) => (
          <Button key={d} className="key" onPress={() => press(d)}>
            {d}
          </Button>
        ))}
        <Button className="key secondary" onPress={() => setPin((p) => p.slice(0, -1))} aria-label="Delete">
          ⌫
        </Button>
        <Button className="key" onPress={() => press("0")}>
          0
        </Button>
        <Button className="key primary small-text" onPress={() => void submit()} isDisabled={pending || pin.length < 4}>
          Sign in
        </Button>
      </div>
      <Button className="big secondary" onPress={onBack}>
        Back
      </Button>
    </section>
  );
}

const localToday = () => CalendarDays.dayOf(new Date(Date.now() - new Date().getTimezoneOffset() * 60_000));
const earliestBirth = () => {
  const d = new Date();
  d.setMonth(d.getMonth() - PATIENT_MAX_AGE_MONTHS);
  return d.toISOString().slice(0, 10);
};
const toPatient = (p: Patient): KioskPatient => ({ identifier: p.identifier, name: p.name, date_of_birth: p.date_of_birth });

/** Search the practice's patients (more than 2 characters), add one, or scan a parent's QR code. */
function PatientPicker({ context, send }: { context: KioskContext; send: Send }) {
  const session = context.session!;
  const [mode, setMode] = useState<"search" | "add" | "qr">("search");
  const [search, setSearch] = useState("");
  const [results, setResults] = useState<Patient[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (mode !== "search") return;
    const text = search.trim();
    if (text.length > 0 && text.length <= 2) return;
    let live = true;
    const timer = window.setTimeout(() => {
      kioskApi
        .patients(session, text)
        .then((page) => live && setResults(page.data))
        .catch((e) => live && handleFailure(e, send, setError));
    }, 250);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [search, mode, session, send]);

  return (
    <section className="panel">
      <Header title="Choose the patient" subtitle={`Signed in: ${context.staff?.name ?? ""}`} />
      <div className="row tabs">
        <Button className={`big ${mode === "search" ? "" : "secondary"}`} onPress={() => setMode("search")}>
          Search
        </Button>
        <Button className={`big ${mode === "add" ? "" : "secondary"}`} onPress={() => setMode("add")}>
          Add patient
        </Button>
        <Button className={`big ${mode === "qr" ? "" : "secondary"}`} onPress={() => setMode("qr")}>
          Scan parent's QR
        </Button>
        <Button className="big secondary" onPress={() => send({ type: "SIGN_OUT" })}>
          Sign out
        </Button>
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {mode === "search" ? (
        <>
          <TextField validationBehavior="aria" value={search} onChange={setSearch} aria-label="Search patients">
            <Input className="search" placeholder="Search patients (more than 2 characters)" autoComplete="off" />
          </TextField>
          <ul className="patients">
            {(results ?? []).map((p) => (
              <li key={p.identifier}>
                <Button className="tile wide" onPress={() => send({ type: "PATIENT_CHOSEN", patient: toPatient(p) })}>
                  <strong>{p.name}</strong> <span>born {p.date_of_birth}</span>
                </Button>
              </li>
            ))}
            {results && results.length === 0 ? <li>No patient found</li> : null}
          </ul>
        </>
      ) : null}
      {mode === "add" ? <AddPatient session={session} send={send} /> : null}
      {mode === "qr" ? <QrLookup session={session} send={send} /> : null}
    </section>
  );
}

function AddPatient({ session, send }: { session: string; send: Send }) {
  const [values, setValues] = useState({ first_name: "", last_name: "", date_of_birth: "", gender: "", email: "" });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const submit = async () => {
    const body = {
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      name: `${values.first_name.trim()} ${values.last_name.trim()}`.trim(),
      date_of_birth: values.date_of_birth,
      ...(values.gender ? { gender: values.gender } : {}),
      ...(values.email.trim() ? { email: values.email.trim() } : {}),
    };
    const checked = check(PatientRequest(localToday()), body);
    if (checked._tag === "Left") return setErrors(checked.left.errors as Record<string, string[]>);
    setErrors({});
    setPending(true);
    try {
      const patient = await kioskApi.addPatient(session, body);
      send({ type: "PATIENT_CHOSEN", patient: toPatient(patient) });
    } catch (e) {
      if (e instanceof ApiError && e.status === 422) setErrors(e.errors);
      else handleFailure(e, send, setError);
    } finally {
      setPending(false);
    }
  };
  const field = (name: keyof typeof values, label: string, props: Record<string, unknown> = {}) => (
    <TextField validationBehavior="aria" value={values[name]} onChange={set(name)} isInvalid={!!errors[name]} className="field">
      <Label>{label}</Label>
      <Input name={name} {...props} />
      {errors[name] ? <span className="error">{errors[name]!.join(", ")}</span> : null}
    </TextField>
  );
  return (
    <form
      className="add-patient"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {field("first_name", "First name", { autoComplete: "off" })}
      {field("last_name", "Last name", { autoComplete: "off" })}
      {field("date_of_birth", "Date of birth", { type: "date", min: earliestBirth(), max: new Date().toISOString().slice(0, 10) })}
      <label className="field">
        <span>Gender</span>
        <select name="gender" value={values.gender} onChange={(e) => set("gender")(e.target.value)}>
          <option value="">Not given</option>
          <option value="male">Male</option>
          <option value="female">Female</option>
          <option value="other">Other</option>
        </select>
        {errors.gender ? <span className="error">{errors.gender.join(", ")}</span> : null}
      </label>
      {field("email", "Caregiver e-mail (optional)", { type: "email", autoComplete: "off" })}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="big" isDisabled={pending}>
        Add patient
      </Button>
    </form>
  );
}

/** How often the scanner looks at the camera: often enough to feel instant, rarely enough to leave the tablet responsive. */
const QR_SCAN_INTERVAL_MS = 200;

/**
 * A parent's QR code from the portal, read with the rear camera (BarcodeDetector where the browser has
 * it, else jsQR), or its code typed in. A code the server refused is not sent again while it stays in view.
 */
function QrLookup({ session, send }: { session: string; send: Send }) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [camera, setCamera] = useState<"starting" | "scanning" | "looking-up" | "unavailable">("starting");
  const videoRef = useRef<HTMLVideoElement>(null);
  const sendRef = useRef(send);
  sendRef.current = send;
  const lookup = async (value: string): Promise<boolean> => {
    setError(null);
    try {
      const patient = await kioskApi.patientByQr(session, value.trim());
      sendRef.current({ type: "PATIENT_CHOSEN", patient: toPatient(patient) });
      return true;
    } catch (e) {
      handleFailure(e, sendRef.current, setError);
      return false;
    }
  };
  const lookupRef = useRef(lookup);
  lookupRef.current = lookup;
  useEffect(() => {
    let live = true;
    let stream: MediaStream | null = null;
    let refused: string | null = null;
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false });
      } catch {
        if (live) setCamera("unavailable");
        return;
      }
      if (!live) return stream.getTracks().forEach((t) => t.stop());
      const video = videoRef.current!;
      video.srcObject = stream;
      await video.play().catch(() => undefined);
      const reader = await createQrReader();
      if (!live) return;
      setCamera("scanning");
      while (live) {
        const found = await reader.read(video).catch(() => null);
        if (found && found !== refused && live) {
          setCamera("looking-up");
          if (await lookupRef.current(found)) break;
          refused = found;
          if (live) setCamera("scanning");
        }
        await new Promise((r) => window.setTimeout(r, QR_SCAN_INTERVAL_MS));
      }
    })();
    return () => {
      live = false;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);
  const status = {
    starting: "Starting the camera…",
    scanning: "Hold the parent's QR code in front of the tablet's camera.",
    "looking-up": "QR code found: looking up the patient…",
    unavailable: "The camera could not be opened: type the code shown under the parent's QR code.",
  }[camera];
  return (
    <div className="qr">
      {camera !== "unavailable" ? (
        <div className="qr-viewfinder">
          <video ref={videoRef} className="qr-video" playsInline muted data-testid="qr-video" />
          <span className="qr-frame" aria-hidden="true" />
        </div>
      ) : null}
      <p role="status" aria-live="polite" data-testid="qr-status">
        {status}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void lookup(code);
        }}
      >
        <TextField validationBehavior="aria" value={code} onChange={setCode}>
          <Label>Code</Label>
          <Input autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={12} placeholder="ABCD-EFGH" />
        </TextField>
        <Button type="submit" className="big" isDisabled={code.trim() === ""}>
          Find patient
        </Button>
      </form>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function PatientChosen({ patient, staff, send }: { patient: KioskPatient; staff: string; send: Send }) {
  return (
    <section className="panel narrow">
      <Header title={patient.name} subtitle={patient.date_of_birth ? `Born ${patient.date_of_birth}` : undefined} />
      <p className="lead">
        {staff}: hold the baby with a second person, nose tip visible. Auto Capture takes 10 good shots; at least {MIN_KIOSK_SHOTS} are needed.
      </p>
      <Button className="big" onPress={() => send({ type: "START_CAPTURE" })}>
        Start camera
      </Button>
      <Button className="big secondary" onPress={() => send({ type: "CHANGE_PATIENT" })}>
        Change patient
      </Button>
    </section>
  );
}

function Review({ context, urls, send }: { context: KioskContext; urls: Map<string, string>; send: Send }) {
  const enough = context.shots.length >= MIN_KIOSK_SHOTS;
  return (
    <section className="panel">
      <Header title={`Review the shots of ${context.patient?.name ?? ""}`} subtitle={`${context.shots.length} shots; remove any bad one. At least ${MIN_KIOSK_SHOTS} are needed.`} />
      {context.error ? (
        <p className="error" role="alert">
          Oops! There was some error: {context.error}
        </p>
      ) : null}
      <ul className="shots" data-testid="shots">
        {context.shots.map((s, i) => (
          <li key={s.id}>
            <img src={urls.get(s.id)} alt={`Shot ${i + 1}`} draggable={false} />
            <Button className="remove" aria-label={`Remove shot ${i + 1}`} onPress={() => send({ type: "DISCARD_SHOT", id: s.id })}>
              ✕
            </Button>
          </li>
        ))}
      </ul>
      <div className="row">
        <Button className="big secondary" onPress={() => send({ type: "RETAKE" })}>
          Retake
        </Button>
        <Button className="big" isDisabled={!enough} onPress={() => send({ type: "UPLOAD" })}>
          Upload {context.shots.length} shots
        </Button>
      </div>
    </section>
  );
}

const STEP_TEXT = { prepare: "Preparing the report", upload: "Uploading the shots", finalize: "Sending to the physician" } as const;

function Uploading({ context }: { context: KioskContext }) {
  const progress = context.upload;
  const fraction = progress ? (progress.step === "finalize" ? 1 : progress.total > 0 ? progress.sent / progress.total : 0) : 0;
  return (
    <section className="panel narrow">
      <Header title="Uploading" subtitle={progress ? STEP_TEXT[progress.step] : ""} />
      <progress max={1} value={fraction} aria-label="Upload progress" data-testid="upload-progress" />
      <p>
        {progress?.sent ?? 0} of {progress?.total ?? 0} shots sent
      </p>
      {!context.online ? <p className="error">Waiting for the network; {context.queue.length} shots are queued on this tablet until they are sent.</p> : null}
    </section>
  );
}

function Done({ send }: { send: Send }) {
  useEffect(() => {
    const timer = window.setTimeout(() => send({ type: "FINISH" }), 8000);
    return () => window.clearTimeout(timer);
  }, [send]);
  return (
    <section className="panel narrow done">
      <Header title="Images Uploaded Successfully" subtitle="The physician will get the report. Nothing about the patient stays on this tablet." />
      <Button className="big" onPress={() => send({ type: "FINISH" })}>
        Next patient
      </Button>
    </section>
  );
}

function Revoked() {
  return (
    <section className="panel narrow">
      <Header title="This tablet is no longer enrolled" subtitle="Its enrolment was revoked. Ask your administrator to enrol it again." />
    </section>
  );
}
