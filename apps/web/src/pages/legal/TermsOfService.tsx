import { links } from "../../config.ts";
import { LegalPage } from "./LegalPage.tsx";

export default function TermsOfService() {
  return (
    <LegalPage title="Terms of Service" updated="November 22, 2026">
      <p>
        These terms govern your use of the Crown portal and apps. By creating an account you agree to them. If you do not agree, please do
        not use Crown.
      </p>
      <h2>A screening aid, not a diagnosis</h2>
      <p>
        Crown measures head shape from photos and videos and reports indices such as the cranial index and the cranial vault asymmetry
        index. It is a screening aid. It does not diagnose, treat or prevent any condition and it does not replace a doctor. Always talk to
        your child's physician about the results and about any concern for your child's health. In an emergency, call your local emergency
        number.
      </p>
      <h2>Your account</h2>
      <ul>
        <li>Give true, current information and keep your password secret. You are responsible for what happens under your account.</li>
        <li>Parents may register only children they are the parent or legal guardian of. Providers and their staff may add only their own patients.</li>
        <li>Providers agree to the Business Associate Agreement presented at first sign-in before using patient data.</li>
      </ul>
      <h2>Photos, videos and reports</h2>
      <p>
        You keep the rights to what you upload. You allow Crown to store and process it to produce your reports, to share the reports with
        the provider you chose, and to use it with identities hidden to check and improve measurement quality. Reports are usually ready
        within one business day; if a scan cannot be measured we will ask you to take it again.
      </p>
      <h2>Acceptable use</h2>
      <p>
        Do not upload content that is not a scan of a child in your care, try to reach other people's data, disrupt the service or reverse
        engineer it.
      </p>
      <h2>Fees</h2>
      <p>Scanning kits and any scan fees are shown before you buy. Your provider may cover them.</p>
      <h2>Ending your account</h2>
      <p>
        You can ask us to remove your account at any time: open Profile and choose <strong>Remove Account</strong>, which opens the{" "}
        <a href={links.removeAccount} target="_blank" rel="opener">
          account removal page
        </a>{" "}
        in a new tab. Confirm with your password and send the request. We record it, confirm it by e-mail, and Crown's administrators
        handle it and contact you at your account's e-mail address; until then your account stays open. We may suspend accounts that break
        these terms.
      </p>
      <h2>Liability</h2>
      <p>
        Crown is provided with care but without any promise that it will always be available or error-free. To the extent the law allows,
        Crown is not liable for decisions made from a report without a physician's advice.
      </p>
      <h2>Contact</h2>
      <p>
        Questions about these terms: <a href={`mailto:${links.supportEmail}`}>{links.supportEmail}</a>.
      </p>
    </LegalPage>
  );
}
