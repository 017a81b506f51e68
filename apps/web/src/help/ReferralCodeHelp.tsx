import { Link } from "react-router-dom";
import { links } from "../config.ts";
import { Card } from "../ui/Card.tsx";

/** /help/referral-code: Crown's answer to "Need help finding your referral code?" (public: parents read it while onboarding). */
export default function ReferralCodeHelp() {
  return (
    <Card title="Finding your referral code" subtitle="Help Center">
      <p>
        A referral code connects your baby to the provider or program that recommended Crown. It is optional: if nobody gave you one, leave
        the field empty and continue.
      </p>
      <h2 className="section-title">Where to look</h2>
      <ul>
        <li>The card, leaflet or note you received from the provider's office or program that recommended Crown.</li>
        <li>If you cannot find it, ask that office or program; they know the code they gave you.</li>
      </ul>
      <h2 className="section-title">Typing it in</h2>
      <p>
        Type the code exactly as written, in the <strong>Referral code (optional)</strong> field of the baby details page. If a code needs
        checking, a Crown administrator reviews your baby's details before your account becomes active, and you will hear from us by e-mail.
      </p>
      <p>
        Still stuck? Write to <a href={`mailto:${links.supportEmail}`}>{links.supportEmail}</a>. <Link to="/baby-details">Back to baby details</Link>
      </p>
    </Card>
  );
}
