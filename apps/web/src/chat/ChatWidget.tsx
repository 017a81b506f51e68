import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { useSession } from "../session/store.ts";
import { type ChatMessage, emailUnseen, getMyConversation, markRead, sendMessage } from "./api.ts";
import { useLiveEvent, useUnreadChatCount } from "./live.ts";
import { Composer, mergeMessages, MessageList } from "./Messages.tsx";
import "./chat.css";

/**
 * The support chat on every signed-in page: a button with the unread count, and a panel with the
 * conversation. New messages, read receipts and counts arrive over the tab's live stream. Support
 * staff (admins, reviewers) answer from the support inbox instead, so they get no widget.
 * The layout shows it without a route of its own: it asks for its words (`chat`) itself and appears with them.
 */
export default function ChatWidget() {
  const session = useSession();
  if (!session || session.userRole === "admin" || session.userRole === "reviewer") return null;
  return <CustomerChat />;
}

function CustomerChat() {
  const { t, ready } = useTranslation("chat");
  const [open, setOpen] = useState(false);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const unread = useUnreadChatCount();
  const openRef = useRef(open);
  openRef.current = open;

  const load = useCallback(async () => {
    try {
      const { results } = await getMyConversation();
      setConversationId(results.conversation?.identifier ?? null);
      setMessages(results.messages);
      setError(null);
    } catch (e) {
      setError(messageOf(e, t("messages.error")));
    }
  }, [t]);

  useEffect(() => {
    if (!open) return;
    void load().then(() => markRead().catch(() => undefined));
  }, [open, load]);

  // While the widget is closed and the tab goes away, e-mail what support wrote and was not seen.
  useEffect(() => {
    const hidden = () => {
      if (document.visibilityState === "hidden" && unread > 0) void emailUnseen().catch(() => undefined);
    };
    document.addEventListener("visibilitychange", hidden);
    return () => document.removeEventListener("visibilitychange", hidden);
  }, [unread]);

  useLiveEvent("chat.message", (d: { conversation: { identifier: string }; message: ChatMessage }) => {
    setConversationId(d.conversation.identifier);
    setMessages((list) => mergeMessages(list, [d.message]));
    if (openRef.current && d.message.side === "support") void markRead().catch(() => undefined);
  });
  useLiveEvent("chat.read", (d: { reader: string; read_at: string }) => {
    if (d.reader !== "support") return;
    setMessages((list) => list.map((m) => (m.side === "customer" && !m.read_at ? { ...m, read_at: d.read_at } : m)));
  });
  useLiveEvent("ready", () => {
    // After a reconnect the stream replays what was missed; a fresh load also covers a pruned gap.
    if (openRef.current) void load();
  });

  const send = async (text: string, images: File[]) => {
    const { results } = await sendMessage(text, images);
    setConversationId(results.conversation.identifier);
    setMessages((list) => mergeMessages(list, [results.message]));
  };

  if (!ready) return null;
  return (
    <div className="chat-widget">
      {open ? (
        <section className="chat-panel" role="dialog" aria-label={t("panel.label")} data-conversation={conversationId ?? ""}>
          <header className="chat-panel-header">
            <h2>{t("panel.title")}</h2>
            <button type="button" className="icon-btn" aria-label={t("panel.close")} onClick={() => setOpen(false)}>
              ×
            </button>
          </header>
          {error ? (
            <p className="form-message form-message-error" role="alert">
              {error}
            </p>
          ) : null}
          <MessageList messages={messages} mine="customer" emptyText={t("panel.empty")} />
          <Composer onSend={send} label={t("panel.composer")} />
        </section>
      ) : null}
      <button
        type="button"
        className="chat-launcher btn btn-primary"
        aria-expanded={open}
        aria-label={unread > 0 ? t("launcher.unread", { count: unread }) : t("common:chat.open")}
        onClick={() => setOpen((o) => !o)}
      >
        {t("common:chat.label")}
        {unread > 0 ? (
          <span className="chat-badge" data-testid="chat-unread">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </button>
    </div>
  );
}
