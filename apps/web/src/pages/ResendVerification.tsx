import { resendVerification } from "../api/accounts.ts";
import { EmailRequestPage } from "./EmailRequestPage.tsx";

export default function ResendVerification() {
  return (
    <EmailRequestPage
      title="Resend Verification Link"
      subtitle="Enter the e-mail you signed up with and we will send you a new verification link."
      button="Get Verification Link"
      success="Verification link sent successfully. Please check your email inbox"
      send={resendVerification}
    />
  );
}
