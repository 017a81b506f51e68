import { useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { downloadDataExport } from "../../api/familyData.ts";
import { messageOf } from "../../api/crown.ts";
import { useSession } from "../../session/store.ts";
import { FormMessage } from "../../ui/fields.tsx";
import { useProof } from "../../security/useProof.tsx";

/**
 * /my-data/download?export=&token= — where the e-mailed link leads (issue 44). Signed in (the route
 * asks for it), the parent downloads the archive once; the server checks that this is their own,
 * that the link is unused and under 24 hours old, and that they proved who they are recently.
 */
export default function DataDownload() {
  const { t } = useTranslation("profile");
  const session = useSession();
  const [params] = useSearchParams();
  const identifier = params.get("export") ?? "";
  const linkToken = params.get("token") ?? "";
  const [state, setState] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  // A proof older than ten minutes asks for the password or a passkey, then downloads.
  const { withProof, dialog } = useProof();
  if (!session) return null;

  const download = async () => {
    setPending(true);
    setState(null);
    try {
      const { blob, fileName } = await withProof(() => downloadDataExport(identifier, linkToken));
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = fileName;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState({ tone: "success", text: t("download.done") });
    } catch (err) {
      setState({ tone: "error", text: messageOf(err) });
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="panel narrow-page" aria-labelledby="page-title">
      <h1 id="page-title">{t("download.title")}</h1>
      {dialog}
      <p>{t("download.intro")}</p>
      {state ? <FormMessage tone={state.tone}>{state.text}</FormMessage> : null}
      {identifier && linkToken ? (
        <div className="form-actions">
          <Button className="btn btn-primary" isPending={pending} isDisabled={state?.tone === "success"} onPress={() => void download()}>
            {t("download.action")}
          </Button>
        </div>
      ) : (
        <FormMessage tone="error">{t("download.badLink")}</FormMessage>
      )}
      <p>
        <Link to="/profile?tab=data">{t("download.back")}</Link>
      </p>
    </section>
  );
}
