import { LANGUAGE_NAMES, LANGUAGES } from "@crown/core/shared/i18n";
import { useEffect } from "react";
import { Button, Header as SectionHeader, type Key, Menu, MenuItem, MenuSection, MenuTrigger, Popover, Separator } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { getProfile, getProfilePhoto } from "../api/account-pages.ts";
import { useAccountLanguage, useChooseLanguage } from "../i18n/LanguageSwitcher.tsx";
import { uploads } from "../session/access.ts";
import type { Session } from "../session/machine.ts";
import { signOutNow } from "../session/signOut.ts";
import { selectedBaby, sessionActor, updateSession, useLists } from "../session/store.ts";

/** The account menu of the signed-in header: profile, kiosk, the parent's babies, the language (the account's: ADR 77), sign-out. */
function Avatar({ session }: { session: Session }) {
  const { profilePicture } = useLists();
  const initials = `${session.firstName.charAt(0)}${session.lastName.charAt(0)}`.toUpperCase();
  return profilePicture ? (
    <img className="avatar" src={profilePicture} alt="" width={32} height={32} />
  ) : (
    <span className="avatar avatar-initials" aria-hidden="true">
      {initials || "?"}
    </span>
  );
}

/** Loads the profile photo once per session (it needs the bearer token). */
export const loadProfilePicture = async () => {
  try {
    // Ask for the image only when the profile says there is one (a 404 would be noise in the console).
    const { results } = await getProfile();
    const url = results.photo ? await getProfilePhoto() : null;
    sessionActor.send({ type: "LISTS", patch: { profilePicture: url } });
  } catch {
    sessionActor.send({ type: "LISTS", patch: { profilePicture: null } });
  }
};

export function ProfileMenu({ session }: { session: Session }) {
  const navigate = useNavigate();
  const { t, i18n } = useTranslation("app");
  useAccountLanguage(true);
  const chooseLanguage = useChooseLanguage(true);
  useEffect(() => {
    void loadProfilePicture();
  }, []);
  const onAction = (key: Key) => {
    const k = String(key);
    if (k === "profile") navigate("/profile");
    else if (k === "kiosk") navigate("/kiosk-settings");
    else if (k === "sign-out") void signOutNow();
    else if (k.startsWith("baby:")) updateSession({ selectedBabyId: k.slice(5) });
    else if (k.startsWith("language:")) void chooseLanguage(k.slice(9));
  };
  return (
    <MenuTrigger>
      <Button className="profile-btn">
        <Avatar session={session} />
        <span className="profile-name">{session.firstName}</span>
        <span className="sr-only">{t("menu.button")}</span>
        <svg viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">
          <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.6" />
        </svg>
      </Button>
      <Popover placement="bottom end" className="popover">
        <Menu className="menu" onAction={onAction} aria-label={t("menu.label")}>
          <MenuItem id="profile" className="menu-item">
            {t("menu.profile")}
          </MenuItem>
          {uploads(session) ? (
            <MenuItem id="kiosk" className="menu-item">
              {t("menu.kiosk")}
            </MenuItem>
          ) : null}
          {session.userRole === "parent" && session.babies.length > 0 ? (
            <>
              <Separator className="menu-sep" />
              <MenuSection className="menu-section">
                <SectionHeader className="menu-header">{t("menu.switchBaby")}</SectionHeader>
                {session.babies.map((b) => (
                  <MenuItem key={b.identifier} id={`baby:${b.identifier}`} className="menu-item" textValue={b.name}>
                    <span className="menu-check" aria-hidden="true">
                      {b.identifier === selectedBaby(session)?.identifier ? "✓" : ""}
                    </span>
                    {b.name}
                    {b.identifier === selectedBaby(session)?.identifier ? <span className="sr-only"> ({t("menu.selected")})</span> : null}
                  </MenuItem>
                ))}
              </MenuSection>
            </>
          ) : null}
          <Separator className="menu-sep" />
          <MenuSection className="menu-section">
            <SectionHeader className="menu-header">{t("common:language.label")}</SectionHeader>
            {LANGUAGES.map((l) => (
              <MenuItem key={l} id={`language:${l}`} className="menu-item" textValue={LANGUAGE_NAMES[l]} lang={l}>
                <span className="menu-check" aria-hidden="true">
                  {l === i18n.language ? "✓" : ""}
                </span>
                {LANGUAGE_NAMES[l]}
                {l === i18n.language ? <span className="sr-only"> ({t("common:language.current")})</span> : null}
              </MenuItem>
            ))}
          </MenuSection>
          <Separator className="menu-sep" />
          <MenuItem id="sign-out" className="menu-item">
            {t("menu.signOut")}
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
