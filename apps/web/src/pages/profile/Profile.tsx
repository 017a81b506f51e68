import { useState } from "react";
import { Button, Disclosure, DisclosurePanel, Heading } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { links } from "../../config.ts";
import { useSession } from "../../session/store.ts";
import { ChangePassword } from "./ChangePassword.tsx";
import { ResearchConsentSection } from "../../learning/ResearchConsent.tsx";
import { ChildForm } from "./ChildForm.tsx";
import { MyProfile } from "./MyProfile.tsx";
import { Devices } from "./Devices.tsx";
import { MyData } from "./MyData.tsx";
import { SecuritySettings } from "../../security/SecuritySettings.tsx";

type Tab = "profile" | "child" | "password" | "security" | "devices" | "data";

export default function Profile() {
  const { t } = useTranslation("profile");
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const parent = session?.userRole === "parent";
  const raw = params.get("tab");
  const tab: Tab =
    raw === "password"
      ? "password"
      : raw === "security"
        ? "security"
        : raw === "devices"
          ? "devices"
          : raw === "data" && parent
            ? "data"
            : raw === "child" && parent
              ? "child"
              : "profile";
  const [babyId, setBabyId] = useState<string | null>(params.get("baby"));
  const [childrenOpen, setChildrenOpen] = useState(raw === "child");
  if (!session) return null;
  const go = (next: Tab, baby: string | null = null) => {
    setBabyId(baby);
    setParams(baby ? { tab: next, baby } : { tab: next }, { replace: true });
  };
  const baby = session.babies.find((b) => b.identifier === babyId) ?? null;

  return (
    <div className="page profile-page">
      <h1 className="page-title">{t("title")}</h1>
      <div className="profile-layout">
        <nav className="side-menu" aria-label={t("sections")}>
          <ul>
            <li>
              <Button className={`side-item${tab === "profile" ? " active" : ""}`} onPress={() => go("profile")} aria-current={tab === "profile" ? "page" : undefined}>
                {t("myProfile")}
              </Button>
            </li>
            {parent ? (
              <li>
                <Disclosure className="side-disclosure" isExpanded={childrenOpen} onExpandedChange={() => undefined}>
                  <Heading level={3} className="side-heading">
                    <Button
                      slot="trigger"
                      className={`side-item${tab === "child" ? " active" : ""}`}
                      onPress={() => {
                        // From another section it opens the add form and the list; on the add form it folds the list.
                        setChildrenOpen((open) => (tab === "child" && babyId === null ? !open : true));
                        go("child");
                      }}
                    >
                      {t("addChild")} <span aria-hidden="true" className="chev">▾</span>
                    </Button>
                  </Heading>
                  <DisclosurePanel className="side-sublist">
                    <ul aria-label={t("children")}>
                      {session.babies.map((b) => (
                        <li key={b.identifier}>
                          <Button className={`side-subitem${babyId === b.identifier && tab === "child" ? " active" : ""}`} onPress={() => go("child", b.identifier)}>
                            {b.name}
                          </Button>
                        </li>
                      ))}
                    </ul>
                  </DisclosurePanel>
                </Disclosure>
              </li>
            ) : null}
            <li>
              <Button className={`side-item${tab === "password" ? " active" : ""}`} onPress={() => go("password")} aria-current={tab === "password" ? "page" : undefined}>
                {t("changePassword")}
              </Button>
            </li>
            <li>
              <Button className={`side-item${tab === "security" ? " active" : ""}`} onPress={() => go("security")} aria-current={tab === "security" ? "page" : undefined}>
                {t("security")}
              </Button>
            </li>
            <li>
              <Button className={`side-item${tab === "devices" ? " active" : ""}`} onPress={() => go("devices")} aria-current={tab === "devices" ? "page" : undefined}>
                {t("devices.title")}
              </Button>
            </li>
            {parent ? (
              <li>
                <Button className={`side-item${tab === "data" ? " active" : ""}`} onPress={() => go("data")} aria-current={tab === "data" ? "page" : undefined}>
                  {t("data.title")}
                </Button>
              </li>
            ) : null}
            {parent || session.userRole === "physician" || session.userRole === "physician_staff" ? (
              <li>
                <Link className="side-item" to="/kiosk-settings">
                  {t("kiosk")}
                </Link>
              </li>
            ) : null}
            <li>
              {/* Same origin: rel="opener" lets the new tab start with this tab's session (sessionStorage is copied). */}
              <a className="side-item" href={links.removeAccount} target="_blank" rel="opener">
                {t("removeAccount")} <span className="sr-only">{t("newTab")}</span>
              </a>
            </li>
          </ul>
        </nav>
        <div className="profile-content panel">
          {tab === "profile" ? <MyProfile /> : null}
          {tab === "password" ? <ChangePassword /> : null}
          {tab === "security" ? <SecuritySettings /> : null}
          {tab === "devices" ? <Devices /> : null}
          {tab === "data" ? <MyData /> : null}
          {tab === "child" ? (
            <section aria-labelledby="section-title">
              <h2 id="section-title">{baby ? baby.name : t("addChild")}</h2>
              <ChildForm baby={baby} onDone={() => undefined} />
              {baby ? <ResearchConsentSection babyId={baby.identifier} /> : null}
            </section>
          ) : null}
        </div>
      </div>
    </div>
  );
}
