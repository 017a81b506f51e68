import { Link } from "react-router-dom";
import { useSession } from "../session/store.ts";

export default function NotFound() {
  const session = useSession();
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">Page not found</h1>
      <p>We could not find this page. It may have moved, or the link may be incomplete.</p>
      <Link className="btn btn-primary" to={session ? "/dashboard" : "/"}>
        {session ? "Go to Home" : "Go to Sign In"}
      </Link>
    </section>
  );
}
