import { recoverPassword } from "../api/accounts.ts";
import { EmailRequestPage } from "./EmailRequestPage.tsx";

export default function ForgotPassword() {
  return (
    <EmailRequestPage
      title="Forgot Password"
      subtitle="Enter the e-mail you signed up with and we will send you a link to choose a new password."
      button="Get Reset Link"
      success="Reset password link successfully sent to your email address"
      send={recoverPassword}
    />
  );
}
