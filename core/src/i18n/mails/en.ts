/**
 * The e-mails' English copy: the source the mail builders fill in (`{name}` placeholders, core's `fill`).
 * Every feature may import this folder (it imports only shared/); the Spanish is beside it (ADR 77).
 */
export const MAILS_EN = {
  common: {
    hello: "Hello {name},",
    helloAnyone: "Hello,",
    footer: "Crown infant head-shape screening. If you did not expect this e-mail, you can ignore it.",
    pasteAddress: "Or paste this address into your browser:",
    signIn: "Sign in",
  },
  verification: {
    subject: "Verify your e-mail address for Crown",
    thanks: "Thank you for signing up for Crown. Please confirm that this is your e-mail address.",
    expires: "The link works once and expires in {hours} hours.",
    action: "Verify e-mail address",
  },
  reset: {
    subject: "Reset your Crown password",
    received: "We received a request to reset the password of your Crown account.",
    expires: "The link works once and expires in {minutes} minutes. If you did not ask for it, your password stays as it is.",
    action: "Reset password",
    unavailable:
      "We received a request to reset the password of a Crown account for this e-mail address, but no password can be reset for it.",
    unavailableHelp:
      "If you have not signed up yet, you can create an account. If you think this is a mistake, please contact Crown support. If you did not ask for this, you can ignore this e-mail.",
    signUp: "Sign up",
  },
  passwordChanged: {
    subject: "Your Crown password was changed",
    changed: "The password of your Crown account was just changed, and every other signed-in device was signed out.",
    notYou: "If this was not you, reset your password at once and contact Crown support.",
  },
  twoStep: {
    resetSubject: "Your Crown two-step sign-in was reset",
    reset: "A Crown administrator reset the two-step sign-in of your account, and every signed-in device was signed out.",
    setUpAgain: "The next time you sign in with your password, Crown will ask you to set up two-step sign-in again.",
    notYou: "If you did not ask for this, contact Crown support at once.",
    enabledSubject: "Two-step sign-in is on for your Crown account",
    enabled: "Two-step sign-in was just turned on for your Crown account ({method}).",
    disabledSubject: "Two-step sign-in is off for your Crown account",
    disabled: "Two-step sign-in was just turned off for your Crown account.",
    methodApp: "an authenticator app",
    methodPasskey: "a passkey",
    notYouChange: "If this was not you, reset your password at once and contact Crown support.",
  },
  approval: {
    approvedSubject: "Your Crown account is approved",
    approved: "An administrator reviewed your information and approved your Crown account. You can sign in now.",
    rejectedSubject: "Your Crown account request",
    rejected: "An administrator reviewed your information and could not approve your Crown account.",
    reason: "Reason: {reason}",
    mistake: "If you think this is a mistake, please contact Crown support.",
  },
  invitation: {
    staffSubject: "{physician} invited you to Crown",
    staffAsOfficeAdmin: "{physician} added you as an office admin on Crown, the infant head-shape screening portal.",
    staffAsNurse: "{physician} added you as a nurse on Crown, the infant head-shape screening portal.",
    setPassword: "Set a password to accept the invitation. The link works once and expires in {days} days.",
    setPasswordAction: "Set your password",
    caregiverRegistered:
      "{physician} registered your baby on Crown, the infant head-shape screening portal, with this e-mail address as the caregiver's.",
    caregiverOpen: "Set a password to open your account: you will find your baby there, and you can upload monthly head scans.",
    caregiverExpires: "The link works once and expires in {days} days.",
    patientRequestSubject: "{physician} asks to add a patient to your Crown account",
    patientRequest: "{physician} registered a baby as a patient on Crown with your e-mail address as the caregiver's.",
    patientRequestConsent: "Nothing is added to your account until you accept. Sign in to see the request, then accept or decline it.",
    staffRequestSubject: "{physician} asks you to join their staff on Crown",
    staffRequestAsOfficeAdmin: "{physician} asks you to act as an office admin for their practice on Crown.",
    staffRequestAsNurse: "{physician} asks you to act as a nurse for their practice on Crown.",
    staffRequestConsent: "You act for the practice only after you accept. Sign in to see the request, then accept or decline it.",
    reviewRequest: "Review the request",
    declinedSubject: "Your request on Crown was declined",
    declined: "Someone you asked to link on Crown declined, so nothing was linked. Your notifications on Crown tell which request it was.",
    nothingLinkedSubject: "{physician} used your e-mail address on Crown",
    nothingLinkedPatient:
      "{physician} registered a patient on Crown with this e-mail address as the caregiver's. The account of this address cannot hold a patient, so nothing was added to it.",
    nothingLinkedStaff:
      "{physician} asked to add this e-mail address to their staff on Crown. The account of this address cannot act as staff, so nothing was changed.",
    otherAddress: "If you are the person the practice meant, please give them another e-mail address.",
    acceptedSubject: "Your Crown invitation was accepted",
  },
  practice: {
    verifiedSubject: "Your practice is verified on Crown",
    verified: "Crown has verified your practice. Families can now find you in the provider search, and you can add patients and staff.",
  },
  removal: {
    subject: "We received your request to remove your Crown account",
    asked: "On {date} you asked us to remove your Crown account ({email}).",
    handled:
      "Crown's administrators have your request and will contact you at this e-mail address about it. Until then your account stays as it is and you can still sign in.",
    notYou: "If you did not make this request, change your password at once and contact Crown support.",
  },
  erasure: {
    subject: "Your Crown account will be erased on {date}",
    asked: "You asked us to erase your Crown account ({email}) and everything it holds about you and your children.",
    grace: "On {date} we erase it: your profile, your children's records, photos, videos, reports and messages. Until then, signing in to Crown cancels the erasure.",
    providers: "A report your child's provider already received stays in that provider's own medical record, under the rules that apply to them.",
    notYou: "If you did not make this request, sign in now to cancel it and change your password.",
  },
  erasureCancelled: {
    subject: "Your Crown account will not be erased",
    cancelled: "You signed in to Crown, so your account ({email}) will not be erased. Nothing was removed.",
  },
  dataExport: {
    subject: "Your Crown data is ready to download",
    ready: "The archive of everything Crown holds about you and your children is ready.",
    once: "The link works once, until {until}, and asks you to sign in again before the download starts.",
    action: "Download my data",
    notYou: "If you did not ask for this archive, change your password at once and contact Crown support.",
  },
  support: {
    subject: "Unread chat from {who}",
    waiting: "{who} wrote in the support chat and is waiting for an answer:",
    action: "Open the support inbox",
    footer: "Crown support inbox. You receive this because you are on the support team.",
    aUser: "A user",
    aVisitor: "A visitor",
  },
  chat: {
    oneSubject: "You have a new message from Crown support",
    manySubject: "You have {count} new messages from Crown support",
    answered: "Crown support answered you in the chat while you were away:",
    openToReply: "Open Crown to read the conversation and reply.",
    action: "Open the chat",
    oneImage: " [1 image]",
    manyImages: " [{count} images]",
    support: "Crown support",
  },
  report: {
    recaptureSubject: "Please take new photos of {baby}",
    recaptureLooked: "Our reviewers looked at the photos and video of {baby} and need a new capture to measure the head reliably.",
    recaptureWhat: "What to redo: {reasons}.",
    recaptureNote: "Reviewer's note: {note}",
    recaptureFollow: "Please follow the capture instructions again and upload new photos and a short video.",
    recaptureAction: "Upload again",
    publishedSubject: "The head-shape report of {baby} is ready",
    publishedReady: "The report of {baby} has been reviewed and is ready to download.",
    publishedCaution: "It is a screening aid, not a diagnosis: please talk to your doctor about it.",
    publishedAction: "See the results",
  },
} as const;

/** The copy in another language: the same groups and keys. */
export type MailCopy = { readonly [G in keyof typeof MAILS_EN]: { readonly [K in keyof (typeof MAILS_EN)[G]]: string } };
