import { Link } from "react-router-dom";
import { isMobileBrowser } from "../config.ts";
import { AppLinks } from "./AppLinks.tsx";

export function Footer() {
  return (
    <footer className="site-footer">
      {isMobileBrowser() ? <AppLinks compact /> : null}
      <nav aria-label="Legal" className="footer-links">
        <Link to="/privacy-policy">Privacy Policy</Link>
        <Link to="/terms-of-service">Terms of Service</Link>
      </nav>
      <p className="footer-note">© {new Date().getFullYear()} Crown. A screening aid — it does not diagnose or treat.</p>
    </footer>
  );
}
