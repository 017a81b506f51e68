import { useEffect, useRef, useState } from "react";
import { Button, Input, Label, TextField } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { kioskApi } from "../crown.ts";
import { createQrReader } from "../qr.ts";
import { ErrorLine, handleFailure, type Send, toPatient } from "./shared.tsx";

/** How often the scanner looks at the camera: often enough to feel instant, rarely enough to leave the tablet responsive. */
const QR_SCAN_INTERVAL_MS = 200;

/**
 * A parent's QR code from the portal, read with the rear camera (BarcodeDetector where the browser has
 * it, else jsQR), or its code typed in. A code the server refused is not sent again while it stays in view.
 */
export function QrLookup({ session, send }: { session: string; send: Send }) {
  const { t } = useTranslation("patients");
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
    starting: t("qr.starting"),
    scanning: t("qr.scanning"),
    "looking-up": t("qr.lookingUp"),
    unavailable: t("qr.unavailable"),
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
          <Label>{t("qr.code")}</Label>
          <Input autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={12} placeholder={t("qr.codeExample")} />
        </TextField>
        <Button type="submit" className="big" isDisabled={code.trim() === ""}>
          {t("qr.find")}
        </Button>
      </form>
      <ErrorLine message={error} />
    </div>
  );
}
