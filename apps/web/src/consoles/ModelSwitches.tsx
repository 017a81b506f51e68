import { useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { crown, messageOf } from "../api/crown.ts";
import type { Api, ResultsOf } from "../api/wire.ts";
import { day, number } from "../i18n/dates.ts";
import { ModalDialog } from "../ui/dialogs.tsx";
import { FormMessage, SubmitButton } from "../ui/fields.tsx";

type ModelPage = ResultsOf<Api["admin"]["model"]["$get"]>;

/**
 * The admin's model switches (issue 41, item 5; ADR 0159): the installed models and their roles, a
 * candidate installed as the shadow, the shadow promoted, a rollback. The server decides every one
 * (admins only) and records it; this page asks and shows the answer.
 */
export function ModelSwitches({ page, onChanged }: { readonly page: ModelPage; readonly onChanged: () => void }) {
  const { t } = useTranslation("admin");
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<"promote" | "rollback" | null>(null);
  const shipped = page.installed.find((m) => m.role === "shipped");
  const shadow = page.installed.find((m) => m.role === "shadow");
  const previous = page.installed.find((m) => m.role === "previous");

  const act = async (call: () => Promise<{ message: string }>) => {
    setBusy(true);
    setMessage(null);
    try {
      const r = await call();
      setMessage({ tone: "success", text: r.message });
      onChanged();
    } catch (e) {
      setMessage({ tone: "error", text: messageOf(e) });
    } finally {
      setBusy(false);
    }
  };
  const install = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const model = data.get("model");
    const card = data.get("card");
    if (!(model instanceof File) || !(card instanceof File)) return;
    void act(() => crown.call((api) => api.admin.model.shadow.$post({ form: { model, card } }))).then(() => form.reset());
  };

  return (
    <section aria-labelledby="models-installed">
      <h3 id="models-installed">{t("model.installedTitle")}</h3>
      {message ? <FormMessage tone={message.tone}>{message.text}</FormMessage> : null}
      {page.installed.length === 0 ? (
        <p className="empty">{t("model.noInstalled")}</p>
      ) : (
        <ul className="model-installed">
          {page.installed.map((m) => (
            <li key={m.identifier}>
              <strong>{t(`model.role.${m.role}`)}</strong>: {m.name} {m.version}
              {m.release_model ? ` (${t("model.releaseModel")})` : ` · sha256 ${m.sha256?.slice(0, 12)}… · ${number((m.size ?? 0) / 1e6, 1)} MB`} · {t("model.since", { date: day(m.role_since) })}
            </li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <Button className="btn btn-primary" isDisabled={!shadow || busy} onPress={() => setConfirm("promote")}>
          {t("model.promote")}
        </Button>
        <Button className="btn btn-secondary" isDisabled={!previous || !shipped || busy} onPress={() => setConfirm("rollback")}>
          {t("model.rollback")}
        </Button>
      </div>
      <form
        className="model-install"
        aria-labelledby="model-install-title"
        onSubmit={(e) => {
          e.preventDefault();
          install(e.currentTarget);
        }}
      >
        <h3 id="model-install-title">{t("model.installTitle")}</h3>
        <p className="muted">{t("model.installAbout")}</p>
        <label className="field">
          <span className="field-label">{t("model.modelFile")}</span>
          <input name="model" type="file" accept=".onnx" required />
        </label>
        <label className="field">
          <span className="field-label">{t("model.cardFile")}</span>
          <input name="card" type="file" accept=".json,application/json" required />
        </label>
        <SubmitButton isPending={busy}>{t("model.install")}</SubmitButton>
      </form>
      <ModalDialog isOpen={confirm !== null} onOpenChange={(open) => !open && setConfirm(null)} title={confirm === "promote" ? t("model.promote") : t("model.rollback")} role="alertdialog" dismissable>
        <p>{confirm === "promote" ? t("model.confirmPromote") : t("model.confirmRollback")}</p>
        <div className="dialog-actions">
          <Button
            className="btn btn-primary"
            autoFocus
            onPress={() => {
              const which = confirm;
              setConfirm(null);
              void act(() => (which === "promote" ? crown.call((api) => api.admin.model.promote.$post()) : crown.call((api) => api.admin.model.rollback.$post())));
            }}
          >
            {confirm === "promote" ? t("model.promote") : t("model.rollback")}
          </Button>
          <Button className="btn btn-secondary" onPress={() => setConfirm(null)}>
            {t("model.cancel")}
          </Button>
        </div>
      </ModalDialog>
    </section>
  );
}
