import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { useSession } from "../session/store.ts";

export default function NotFound() {
  const { t } = useTranslation("account");
  const session = useSession();
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">{t("notFound.title")}</h1>
      <p>{t("notFound.text")}</p>
      <Link className="btn btn-primary" to={session ? "/dashboard" : "/"}>
        {session ? t("notFound.home") : t("notFound.signIn")}
      </Link>
    </section>
  );
}
