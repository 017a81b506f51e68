/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_BASE?: string;
  readonly VITE_SHOP_URL?: string;
  readonly VITE_WEBINAR_URL?: string;
  readonly VITE_REMOVE_ACCOUNT_URL?: string;
  readonly VITE_HELP_VIDEO_URL?: string;
  readonly VITE_IOS_APP_URL?: string;
  readonly VITE_ANDROID_APP_URL?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
