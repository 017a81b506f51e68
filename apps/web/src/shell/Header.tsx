import { lazy, Suspense, useEffect, useState } from "react";
import {
  Button,
  Dialog,
  DialogTrigger,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select,
  SelectValue,
} from "react-aria-components";
import { useTranslation } from "react-i18next";
import { NavLink, useNavigate } from "react-router-dom";
import { notifications, readNotifications, rowsOf } from "../api/dashboard.ts";
import { useLiveBellCount } from "../chat/live.ts";
import { staffPhysicians } from "../api/onboarding.ts";
import type { Session } from "../session/machine.ts";
import { uploads } from "../session/access.ts";
import { babyHasPhysician, selectedBaby, sessionActor, updateSession, useLists, useSession } from "../session/store.ts";
import { ProfileMenu } from "./ProfileMenu.tsx";
import { Logo } from "../ui/Brand.tsx";
import { ExternalNavLink } from "./ExternalNavLink.tsx";

export interface NavItem {
  /** The item's key in the `app` catalogue's `header.nav`. */
  readonly label: string;
  readonly to: string;
  readonly external?: boolean;
}

/** The header items per role, exactly as the spec lists them. */
export const navItems = (session: Session): ReadonlyArray<NavItem> => {
  switch (session.userRole) {
    case "physician":
      return [
        { label: "home", to: "/dashboard" },
        { label: "workflow", to: "/workflow" },
        { label: "results", to: "/results" },
        { label: "quiz", to: "/optional-quiz-instructions" },
        { label: "staff", to: "/my-staff" },
        { label: "patients", to: "/my-patients" },
        { label: "help", to: "/help-center" },
        { label: "buyKits", to: "/buy-kits", external: true },
        { label: "webinar", to: "/webinar", external: true },
      ];
    case "physician_staff":
      return [
        { label: "home", to: "/dashboard" },
        { label: "workflow", to: "/workflow" },
        { label: "results", to: "/staff-results" },
        { label: "patients", to: "/my-patients" },
        { label: "help", to: "/help-center" },
        { label: "buyKits", to: "/buy-kits", external: true },
        { label: "webinar", to: "/webinar", external: true },
      ];
    // Crown's internal roles. The review console is the reviewers' alone (the server's review calls
    // require the reviewer role); both answer the support chat in the inbox.
    case "reviewer":
      return [
        { label: "review", to: "/review" },
        { label: "support", to: "/support" },
        { label: "help", to: "/help-center" },
      ];
    case "admin":
      return [
        { label: "admin", to: "/admin" },
        { label: "support", to: "/support" },
      ];
    default: {
      const items: NavItem[] = [
        { label: "home", to: "/dashboard" },
        { label: "instructions", to: "/select-cap-mode" },
        { label: "quiz", to: "/optional-quiz-instructions" },
        { label: "uploads", to: "/uploads" },
      ];
      if (babyHasPhysician(selectedBaby(session))) items.push({ label: "results", to: "/parent-results" });
      items.push({ label: "help", to: "/help-center" });
      return items;
    }
  }
};

/** A role's name in the portal's language (the header's "Signed in as", the profile). */
export const useRoleName = () => {
  const { t } = useTranslation("app");
  return (role: Session["userRole"]) => t(`header.roles.${role}`);
};

function NotificationBell() {
  const { t } = useTranslation("app");
  const { notificationCount, notifications: list } = useLists();
  const navigate = useNavigate();
  // The count arrives over the tab's live stream: its `ready` event on every (re)connect, then each change.
  useLiveBellCount();
  const open = (isOpen: boolean) => {
    if (!isOpen) return;
    notifications()
      .then((r) => {
        sessionActor.send({ type: "LISTS", patch: { notifications: rowsOf(r.results) } });
        if (notificationCount > 0) return readNotifications().then(() => sessionActor.send({ type: "LISTS", patch: { notificationCount: 0 } }));
        return undefined;
      })
      .catch(() => undefined);
  };
  const label = notificationCount > 0 ? t("header.unread", { count: notificationCount }) : t("header.notifications");
  return (
    <DialogTrigger onOpenChange={open}>
      <Button className="icon-btn bell" aria-label={label}>
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.5-2.5h-5A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.8V3.5a1.5 1.5 0 0 0-3 0v.7A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" />
        </svg>
        {notificationCount > 0 ? (
          <span className="badge" aria-hidden="true">
            {notificationCount > 99 ? "99+" : notificationCount}
          </span>
        ) : null}
      </Button>
      <Popover placement="bottom end" className="popover notifications-popover">
        <Dialog aria-label={t("header.notifications")} className="popover-dialog">
          {({ close }) => (
            <>
              <h2 className="popover-title">{t("header.notifications")}</h2>
              {list.length === 0 ? (
                <p className="muted">{t("header.noNotifications")}</p>
              ) : (
                <ul className="notification-list">
                  {list.map((n, i) => (
                    <li key={n.identifier ?? i} className={n.read ? "" : "unread"}>
                      {n.text}
                      {/* A practice's request is answered on its page (ADR 56); the kind is typed by the server's answer. */}
                      {n.kind === "link_requested" ? (
                        <Button
                          className="link-inline"
                          onPress={() => {
                            close();
                            navigate("/link-requests");
                          }}
                        >
                          {t("header.reviewRequest")}
                        </Button>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}

const UploadFlow = lazy(() => import("../reporting/UploadFlow.tsx"));

function UploadButton() {
  const { t } = useTranslation("app");
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button className="btn btn-primary btn-sm header-upload" onPress={() => setOpen(true)}>
        {t("header.upload")}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <UploadFlow onDone={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

/** Waits before asking again for the physicians after a failure: 1 s, doubling, at most 30 s. */
export const physiciansRetryMs = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));

/** Staff act for one physician at a time; the first of their list is preselected (spec section 6). */
function PhysicianSelector({ session }: { session: Session }) {
  const { t } = useTranslation("app");
  const { physicians } = useLists();
  useEffect(() => {
    // Every screen of a staff member depends on this list: a request that fails (a busy server refuses it
    // twice, the network drops it) is asked again until it is answered, never left empty (issue 46).
    let stopped = false;
    let timer: number | undefined;
    const load = (failures: number) =>
      staffPhysicians()
        .then((r) => {
          if (stopped) return;
          const list = r.results ?? [];
          sessionActor.send({ type: "LISTS", patch: { physicians: list } });
          const current = sessionActor.getSnapshot().context.session?.activePhysicianId;
          if (list[0] && !list.some((p) => p.identifier === current)) updateSession({ activePhysicianId: list[0].identifier });
        })
        .catch(() => {
          if (!stopped) timer = window.setTimeout(() => void load(failures + 1), physiciansRetryMs(failures + 1));
        });
    void load(0);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, []);
  return (
    <Select
      className="physician-select"
      selectedKey={session.activePhysicianId}
      onSelectionChange={(k) => k !== null && updateSession({ activePhysicianId: String(k) })}
      placeholder={t("header.selectPhysician")}
    >
      <Label className="sr-only">{t("header.actingFor")}</Label>
      <Button className="select-btn">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="listbox" items={physicians} renderEmptyState={() => <span className="muted">{t("header.noPhysicians")}</span>}>
          {(p) => (
            <ListBoxItem id={p.identifier} className="listbox-item">
              {p.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}

export function AppHeader() {
  const { t } = useTranslation("app");
  const roleName = useRoleName();
  const session = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  if (!session) return null;
  const items = navItems(session);
  return (
    <header className="app-header">
      <div className="app-header-inner">
        <Logo to="/dashboard" />
        <Button className="icon-btn nav-toggle" aria-label={t("header.menu")} aria-expanded={menuOpen} aria-controls="main-nav" onPress={() => setMenuOpen((o) => !o)}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" />
          </svg>
        </Button>
        <nav id="main-nav" aria-label={t("header.main")} className={`main-nav${menuOpen ? " open" : ""}`}>
          <ul>
            {items.map((i) => (
              <li key={i.to}>
                {i.external ? (
                  <ExternalNavLink to={i.to} onClick={() => setMenuOpen(false)}>
                    {t(`header.nav.${i.label}`)}
                  </ExternalNavLink>
                ) : (
                  <NavLink to={i.to} onClick={() => setMenuOpen(false)}>
                    {t(`header.nav.${i.label}`)}
                  </NavLink>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <div className="header-tools">
          {session.userRole === "physician_staff" ? <PhysicianSelector session={session} /> : null}
          {uploads(session) ? <UploadButton /> : null}
          <NotificationBell />
          <ProfileMenu session={session} />
        </div>
      </div>
      <p className="sr-only">{t("header.signedInAs", { role: roleName(session.userRole) })}</p>
    </header>
  );
}

