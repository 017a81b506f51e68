import { Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { pageWith } from "../i18n/i18n.ts";
import { useSession } from "../session/store.ts";
import "./chat.css";

/**
 * The chat launcher on the public pages. The panel (its messages, polling and sending) is its own chunk,
 * fetched the first time a visitor opens it, so the sign-in page does not carry it (issue 19, ADR 74).
 * Once opened the panel stays mounted: closing keeps what the visitor typed. The launcher's two words are
 * in `common`; the panel's (`chat`) come with the panel's chunk.
 */

const VisitorChatPanel = pageWith(["chat"], () => import("./VisitorChatPanel.tsx"));

export default function VisitorChat() {
  const { t } = useTranslation();
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  if (session) return null;
  const toggle = () => {
    setOpened(true);
    setOpen((o) => !o);
  };
  return (
    <div className="chat-widget">
      {opened ? (
        <Suspense fallback={null}>
          <VisitorChatPanel open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
      <button type="button" className="chat-launcher btn btn-primary" aria-expanded={open} aria-label={t("chat.open")} onClick={toggle}>
        {t("chat.label")}
      </button>
    </div>
  );
}
