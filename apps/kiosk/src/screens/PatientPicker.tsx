import type { KioskContext } from "@crown/core/kiosk/machine";
import { useEffect, useState } from "react";
import { Button, Input, TextField } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { kioskApi, type Patient } from "../crown.ts";
import { AddPatient } from "./AddPatient.tsx";
import { QrLookup } from "./QrLookup.tsx";
import { birthDay, ErrorLine, handleFailure, Header, type Send, toPatient } from "./shared.tsx";

/** Search the practice's patients (more than 2 characters), add one, or scan a parent's QR code. */
export function PatientPicker({ context, send }: { context: KioskContext; send: Send }) {
  const { t } = useTranslation("patients");
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
        .then((page) => live && setResults([...page.data]))
        .catch((e) => live && handleFailure(e, send, setError));
    }, 250);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [search, mode, session, send]);

  return (
    <section className="panel">
      <Header title={t("picker.title")} subtitle={t("picker.signedIn", { name: context.staff?.name ?? "" })} />
      <div className="row tabs">
        <Button className={`big ${mode === "search" ? "" : "secondary"}`} onPress={() => setMode("search")}>
          {t("picker.search")}
        </Button>
        <Button className={`big ${mode === "add" ? "" : "secondary"}`} onPress={() => setMode("add")}>
          {t("picker.add")}
        </Button>
        <Button className={`big ${mode === "qr" ? "" : "secondary"}`} onPress={() => setMode("qr")}>
          {t("picker.qr")}
        </Button>
        <Button className="big secondary" onPress={() => send({ type: "SIGN_OUT" })}>
          {t("picker.signOut")}
        </Button>
      </div>
      <ErrorLine message={error} />
      {mode === "search" ? (
        <>
          <TextField validationBehavior="aria" value={search} onChange={setSearch} aria-label={t("picker.searchLabel")}>
            <Input className="search" placeholder={t("picker.searchPlaceholder")} autoComplete="off" />
          </TextField>
          <ul className="patients">
            {(results ?? []).map((p) => (
              <li key={p.identifier}>
                <Button className="tile wide" onPress={() => send({ type: "PATIENT_CHOSEN", patient: toPatient(p) })}>
                  <strong>{p.name}</strong> <span>{t("picker.born", { date: birthDay(p.date_of_birth) })}</span>
                </Button>
              </li>
            ))}
            {results && results.length === 0 ? <li>{t("picker.none")}</li> : null}
          </ul>
        </>
      ) : null}
      {mode === "add" ? <AddPatient session={session} send={send} /> : null}
      {mode === "qr" ? <QrLookup session={session} send={send} /> : null}
    </section>
  );
}
