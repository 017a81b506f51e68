import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { homeFor } from "../session/home.ts";
import { useSession } from "../session/store.ts";

/** A signed-in screen meant for another role (issue 22, item 12): said plainly, with the way home. */
export default function NotAvailable() {
  const { t } = useTranslation("account");
  const session = useSession();
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">{t("notAvailable.title")}</h1>
      <p>{t("notAvailable.text")}</p>
      <Link className="btn btn-primary" to={session ? homeFor(session) : "/"}>
        {t("notAvailable.home")}
      </Link>
    </section>
  );
}
