/**
 * Fixed addresses of the portal. External destinations that a deployment chooses (shop, webinar,
 * app stores, the referral-code video) come from the server's GET /config (api/publicConfig.ts).
 */
export const links = {
  supportEmail: "support@crownscreening.com",
  /** Crown's own page for account removal requests (opens in a new tab from Profile). */
  removeAccount: "/remove-account",
  /** Crown's own answer on referral codes, used unless the server sets HELP_VIDEO_URL. */
  referralHelp: "/help/referral-code",
};

export const isMobileBrowser = (ua: string = typeof navigator === "undefined" ? "" : navigator.userAgent) =>
  /Android|iPhone|iPad|iPod|Mobile|webOS|BlackBerry|IEMobile|Opera Mini/i.test(ua);
