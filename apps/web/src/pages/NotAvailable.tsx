import { Link } from "react-router-dom";
import { homeFor } from "../session/home.ts";
import { useSession } from "../session/store.ts";

/** A signed-in screen meant for another role (issue 22, item 12): said plainly, with the way home. */
export default function NotAvailable() {
  const session = useSession();
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">Not available for your account</h1>
      <p>This page is for another kind of account, so there is nothing to show you here.</p>
      <Link className="btn btn-primary" to={session ? homeFor(session) : "/"}>
        Go to Home
      </Link>
    </section>
  );
}
