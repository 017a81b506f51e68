import { links } from "../../config.ts";
import { LegalPage } from "./LegalPage.tsx";

export default function PrivacyPolicy() {
  return (
    <LegalPage title="Privacy Policy" updated="November 1, 2026">
      <p>
        Crown helps parents and pediatric providers screen an infant's head shape with a photo or a short video each month. Because the
        information you give us is about a child's health, we collect as little as we can, protect it carefully and never sell it. This
        policy explains what we keep, why, who can see it and how you can have it deleted.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>Your account: name, e-mail address, mobile number, role (parent, provider or provider staff) and, for providers, a fax number.</li>
        <li>Your baby: name, date of birth, your relationship to the baby, the provider you chose, and, if you tell us, sex, weeks born early, race and previous conditions.</li>
        <li>Head photos and videos you upload, and the measurements and reports made from them.</li>
        <li>Technical records: sign-in times, the device type and an audit trail of who opened which record.</li>
      </ul>
      <h2>Why we use it</h2>
      <p>
        To measure head shape, produce your reports, send them to you and to the provider you chose, remind you when the next monthly scan
        is due, and keep the service safe. Uploaded media may be used, with identities hidden, to check and improve the quality of our
        measurements. We do not use your information for advertising.
      </p>
      <h2>How we keep it safe</h2>
      <ul>
        <li>Everything is encrypted in transit (TLS) and at rest; passwords are stored only as salted hashes.</li>
        <li>Only you, the provider and practice staff you chose, and the Crown experts who review scans can see a baby's records. Every access to a record is logged and audited.</li>
        <li>Sessions expire, and changing your password signs out every other device.</li>
        <li>We never sell or rent personal or health information to anyone.</li>
      </ul>
      <h2>Who we share it with</h2>
      <p>
        Your baby's reports go to the provider you named. We use carefully chosen service providers (hosting, e-mail delivery) who act only
        on our instructions under written agreements, including business associate agreements where the law requires them. We disclose
        information if the law requires us to.
      </p>
      <h2>How long we keep it</h2>
      <p>
        We keep your records while your account is open so that you and your provider can follow progress over time. When you delete your
        account we remove your personal data and media within 30 days, except records we must keep by law, which are kept securely and
        deleted when that duty ends.
      </p>
      <h2>Your choices and how to delete your account</h2>
      <p>
        You can see and correct your details on your Profile page at any time. To delete your account and your babies' data, open Profile,
        choose <strong>Remove Account</strong> and follow the steps, or use the{" "}
        <a href={links.removeAccount} target="_blank" rel="noopener noreferrer">
          account removal page
        </a>
        . You can also write to <a href={`mailto:${links.supportEmail}`}>{links.supportEmail}</a>.
      </p>
      <h2>Children</h2>
      <p>Crown accounts are for adults. Information about an infant is given by a parent or guardian, or by the infant's provider.</p>
      <h2>Changes</h2>
      <p>If we change this policy in a way that matters, we will tell you by e-mail or in the portal before the change takes effect.</p>
    </LegalPage>
  );
}
