import { type FormEvent, useCallback, useRef, useState } from "react";
import { Button, Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { ApiError, messageOf } from "../api/crown.ts";
import { passkeyProofOptions, proveWithPasskey, proveWithPassword } from "../api/secondFactor.ts";
import { ModalDialog } from "../ui/dialogs.tsx";
import { Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { passkeysSupported, signWithPasskey } from "./passkeys.ts";

/** core's PROOF_REQUIRED_STATUS (core/src/accounts/recent-proof.ts; its module brings Effect). */
const PROOF_REQUIRED = "ProofRequired";

/**
 * Sensitive actions ask for the password or a passkey again when the session's last proof is over
 * ten minutes old (the server answers 403 ProofRequired). `withProof(call)` runs the call; on that
 * answer it opens a dialog, proves, and runs the call once more. `dialog` is rendered by the page.
 */
export function useProof() {
  const { t } = useTranslation("security");
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const waiting = useRef<{ resolve: () => void; reject: (e: unknown) => void } | null>(null);

  const withProof = useCallback(async <T,>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ApiError && err.httpStatus === 403 && err.status === PROOF_REQUIRED)) throw err;
      await new Promise<void>((resolve, reject) => {
        waiting.current = { resolve, reject };
        setPassword("");
        setError(null);
        setOpen(true);
      });
      return call();
    }
  }, []);

  const proved = () => {
    setOpen(false);
    waiting.current?.resolve();
    waiting.current = null;
  };
  const cancel = () => {
    setOpen(false);
    waiting.current?.reject(new ApiError(403, t("proof.cancelled"), {}, PROOF_REQUIRED));
    waiting.current = null;
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    try {
      await proveWithPassword(password);
      proved();
    } catch (err) {
      setError(err instanceof ApiError ? (err.fieldErrors.password ?? messageOf(err)) : messageOf(err));
    } finally {
      setPending(false);
    }
  };
  const passkey = async () => {
    setError(null);
    try {
      const { results } = await passkeyProofOptions();
      await proveWithPasskey(await signWithPasskey(results.options));
      proved();
    } catch (err) {
      setError(err instanceof ApiError ? messageOf(err) : t("passkey.cancelled"));
    }
  };

  const dialog = (
    <ModalDialog isOpen={open} onOpenChange={(next) => (next ? undefined : cancel())} title={t("proof.title")} dismissable>
      <p>{t("proof.why")}</p>
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label={t("proof.title")}>
        <Field name="proof_password" label={t("proof.password")} type="password" autoComplete="current-password" value={password} onChange={setPassword} error={error ?? undefined} />
        <div className="form-actions">
          <Button className="btn btn-secondary" onPress={cancel}>
            {t("proof.cancel")}
          </Button>
          {passkeysSupported() ? (
            <Button className="btn btn-secondary" onPress={() => void passkey()}>
              {t("proof.passkey")}
            </Button>
          ) : null}
          <SubmitButton isPending={pending}>{t("proof.submit")}</SubmitButton>
        </div>
      </Form>
    </ModalDialog>
  );
  return { withProof, dialog };
}
