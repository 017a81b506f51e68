import { links } from "../../config.ts";
import { LegalPage } from "./LegalPage.tsx";

export default function PrivacyPolicy() {
  return (
    <LegalPage title="Privacy Policy" updated="November 22, 2026">
      <p>
        Crown helps parents and pediatric providers screen an infant's head shape with a photo or a short video each month. Because the
        information you give us is about a child's health, we collect as little as we can, protect it carefully and never sell it. This
        policy explains what we keep, why, who can see it and how you can ask us to remove your account.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>Your account: name, e-mail address, mobile number, role (parent, provider or provider staff) and, for providers, a fax number.</li>
        <li>Your baby: name, date of birth, your relationship to the baby, the provider you chose, and, if you tell us, sex, weeks born early, race and previous conditions.</li>
        <li>Head photos and videos you upload, and the measurements and reports made from them.</li>
        <li>Technical records: sign-in times, the device type and an audit log of sign-ins, changes to accounts and records, and report downloads.</li>
      </ul>
      <h2>Why we use it</h2>
      <p>
        To measure head shape, produce your reports, send them to you and to the provider you chose, remind you when the next monthly scan
        is due, and keep the service safe. Uploaded media may be used, with identities hidden, to check and improve the quality of our
        measurements. We do not use your information for advertising.
      </p>
      <h2>How we keep it safe</h2>
      <ul>
        <li>
          Crown is meant to be reached only over an encrypted connection (HTTPS/TLS), which the organisation that runs it sets up. Passwords
          are stored only as salted hashes, and the secrets in e-mailed links and session tokens are stored only as hashes too.
        </li>
        <li>
          Crown itself does not encrypt the files and database records it stores; encryption at rest is provided, where it is, by the storage
          and database services of the organisation that runs Crown.
        </li>
        <li>
          Only you, the provider and practice staff you chose, the Crown experts who review scans and Crown's administrators can see a baby's
          records; each role sees only what it needs. Sign-ins, changes and report downloads are recorded in an audit log.
        </li>
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
        We keep your records while your account is open so that you and your provider can follow progress over time. Nothing is removed
        automatically: removing an account starts with your request, described below.
      </p>
      <h2>Your choices and how to remove your account</h2>
      <p>You can see and correct your details on your Profile page at any time.</p>
      <p>
        To ask us to remove your account, open Profile and choose <strong>Remove Account</strong>. It opens Crown's{" "}
        <a href={links.removeAccount} target="_blank" rel="opener">
          account removal page
        </a>{" "}
        in a new tab, where you confirm with your password and may say why. We then:
      </p>
      <ul>
        <li>record your request and note it in the audit log;</li>
        <li>send a confirmation to your account's e-mail address;</li>
        <li>show the request to Crown's administrators in their console; they handle it and contact you at that e-mail address.</li>
      </ul>
      <p>
        Until then your account stays as it is and you can still sign in. You can also write to{" "}
        <a href={`mailto:${links.supportEmail}`}>{links.supportEmail}</a>.
      </p>
      <h2>Children</h2>
      <p>Crown accounts are for adults. Information about an infant is given by a parent or guardian, or by the infant's provider.</p>
      <h2>Changes</h2>
      <p>If we change this policy in a way that matters, we will tell you by e-mail or in the portal before the change takes effect.</p>
    </LegalPage>
  );
}
