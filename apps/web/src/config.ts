/** External destinations; a deployment sets them with VITE_* variables at build time. */
export const links = {
  shop: import.meta.env.VITE_SHOP_URL ?? "https://shop.crownscreening.com/",
  webinar: import.meta.env.VITE_WEBINAR_URL ?? "https://calendly.com/crownscreening/webinar",
  removeAccount: import.meta.env.VITE_REMOVE_ACCOUNT_URL ?? "https://crownscreening.com/remove-account",
  referralHelpVideo: import.meta.env.VITE_HELP_VIDEO_URL ?? "https://www.youtube.com/results?search_query=crown+head+shape+referral+code",
  iosApp: import.meta.env.VITE_IOS_APP_URL ?? "https://apps.apple.com/app/crown-head-shape/id0000000000",
  androidApp: import.meta.env.VITE_ANDROID_APP_URL ?? "https://play.google.com/store/apps/details?id=com.crownscreening.app",
  supportEmail: "support@crownscreening.com",
};

export const isMobileBrowser = (ua: string = typeof navigator === "undefined" ? "" : navigator.userAgent) =>
  /Android|iPhone|iPad|iPod|Mobile|webOS|BlackBerry|IEMobile|Opera Mini/i.test(ua);
