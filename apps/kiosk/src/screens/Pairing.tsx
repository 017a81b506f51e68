import { useState } from "react";
import { Button, Input, Label, TextField } from "react-aria-components";
import { ApiError, kioskApi, storeDevice } from "../api.ts";
import { ErrorLine, Header, type Send } from "./shared.tsx";

/** An unpaired tablet: the one-time pairing code from the portal enrols it. */
export function Pairing({ send }: { send: Send }) {
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
        <ErrorLine message={error} />
        <Button type="submit" className="big" isDisabled={pending || code.replace(/[\s-]/g, "").length < 8}>
          Enrol tablet
        </Button>
      </form>
    </section>
  );
}
