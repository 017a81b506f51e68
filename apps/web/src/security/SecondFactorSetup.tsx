import { type FormEvent, useState } from "react";
import { Button, Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { ApiError, messageOf } from "../api/crown.ts";
import { addPasskey, confirmAuthenticatorApp, passkeyRegistrationOptions, startAuthenticatorApp } from "../api/secondFactor.ts";
import { CheckField, Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { QrCode } from "../ui/QrCode.tsx";
import { createPasskey, passkeysSupported } from "./passkeys.ts";

type Run = <T>(call: () => Promise<T>) => Promise<T>;

/** The secret as an app's "enter a key" screen wants it: groups of four. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, "$1 ").trim();

/**
 * The ten recovery codes, shown this once: copied, downloaded or written down, and confirmed as
 * kept before the page goes on.
 */
export function RecoveryCodes({ codes, onDone }: { readonly codes: ReadonlyArray<string>; readonly onDone: () => void }) {
  const { t } = useTranslation("security");
  const [kept, setKept] = useState(false);
  const text = `${t("codes.fileTitle")}\n\n${codes.join("\n")}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "crown-recovery-codes.txt";
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section aria-labelledby="codes-title" className="recovery-codes">
      <h2 id="codes-title">{t("codes.title")}</h2>
      <p>{t("codes.why")}</p>
      <ol className="code-list" aria-label={t("codes.list")}>
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="form-actions">
        <Button className="btn btn-secondary" onPress={() => void navigator.clipboard?.writeText(codes.join("\n"))}>
          {t("codes.copy")}
        </Button>
        <Button className="btn btn-secondary" onPress={download}>
          {t("codes.download")}
        </Button>
      </div>
      <CheckField name="codes_kept" isSelected={kept} onChange={setKept}>
        {t("codes.kept")}
      </CheckField>
      <div className="form-actions">
        <Button className="btn btn-primary" isDisabled={!kept} onPress={onDone}>
          {t("codes.continue")}
        </Button>
      </div>
    </section>
  );
}

/**
 * Setting up a second factor: an authenticator app (QR code, or its key typed in, then its current
 * code) or a passkey (this device's, or a security key). A first factor answers the recovery codes,
 * which are shown before `onDone`. `run` wraps each call (the fresh proof, useProof).
 */
export function SecondFactorSetup({ run, onDone, passkeyFirst = false }: { readonly run: Run; readonly onDone: (changed: boolean) => void; readonly passkeyFirst?: boolean }) {
  const { t } = useTranslation("security");
  const [app, setApp] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [codes, setCodes] = useState<ReadonlyArray<string> | null>(null);
  const [passkeyName, setPasskeyName] = useState("");

  const failed = (err: unknown) => setError(err instanceof ApiError ? (Object.values(err.fieldErrors)[0] ?? messageOf(err)) : t("passkey.cancelled"));
  const finished = (recovery: ReadonlyArray<string> | null) => (recovery ? setCodes(recovery) : onDone(true));

  const begin = async () => {
    setError(null);
    try {
      setApp((await run(() => startAuthenticatorApp())).results);
    } catch (err) {
      failed(err);
    }
  };
  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!/^\d{6}$/.test(code.replace(/\s/g, ""))) return setError(t("app.codeFormat"));
    setPending(true);
    try {
      finished((await run(() => confirmAuthenticatorApp(code.replace(/\s/g, "")))).results.recovery_codes);
    } catch (err) {
      failed(err);
    } finally {
      setPending(false);
    }
  };
  const passkey = async () => {
    setError(null);
    setPending(true);
    try {
      const { results } = await run(() => passkeyRegistrationOptions());
      const response = await createPasskey(results.options);
      finished((await run(() => addPasskey(response, passkeyName.trim()))).results.recovery_codes);
    } catch (err) {
      failed(err);
    } finally {
      setPending(false);
    }
  };

  if (codes) return <RecoveryCodes codes={codes} onDone={() => onDone(true)} />;
  const passkeyPart = passkeysSupported() ? (
    <section aria-labelledby="passkey-title" className="setup-part">
      <h2 id="passkey-title">{t("passkey.title")}</h2>
      <p>{t("passkey.why")}</p>
      <Field name="passkey_name" label={t("passkey.name")} value={passkeyName} onChange={setPasskeyName} maxLength={60} placeholder={t("passkey.namePlaceholder")} />
      <div className="form-actions">
        <Button className="btn btn-secondary" onPress={() => void passkey()} isDisabled={pending}>
          {t("passkey.add")}
        </Button>
      </div>
    </section>
  ) : null;
  return (
    <div className="second-factor-setup">
      {passkeyFirst ? passkeyPart : null}
      <section aria-labelledby="app-title" className="setup-part">
        <h2 id="app-title">{t("app.title")}</h2>
        {app === null ? (
          <>
            <p>{t("app.why")}</p>
            <div className="form-actions">
              <Button className="btn btn-primary" onPress={() => void begin()}>
                {t("app.start")}
              </Button>
            </div>
          </>
        ) : (
          <>
            <ol className="steps">
              <li>{t("app.scan")}</li>
              <li>{t("app.enter")}</li>
            </ol>
            <QrCode text={app.otpauth_url} label={t("app.qr")} testId="totp-qr" />
            <p className="small">
              {t("app.manual")} <code data-testid="totp-secret">{grouped(app.secret)}</code>
            </p>
            <Form onSubmit={confirm} className="form narrow-form" validationBehavior="aria" aria-label={t("app.form")}>
              <Field name="code" label={t("app.code")} value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" maxLength={7} />
              <div className="form-actions">
                <SubmitButton isPending={pending}>{t("app.confirm")}</SubmitButton>
              </div>
            </Form>
          </>
        )}
      </section>
      {passkeyFirst ? null : passkeyPart}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
    </div>
  );
}
