import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, crown, messageOf } from "../api/crown.ts";
import type { ChatMessage } from "./api.ts";
import { Composer, mergeMessages, MessageList } from "./Messages.tsx";

/**
 * The chat on the public pages: a visitor writes with an e-mail address. The first message answers a
 * visitor token (kept in this browser only) that reaches this visitor's own messages and nothing else.
 * Visitors have no session, so no event stream: the open panel asks for new messages every 10 seconds.
 * Its chunk loads when the visitor first opens the chat (`VisitorChat.tsx`), then stays mounted.
 */

const STORAGE = "crown.visitorChat";
interface Stored {
  token: string;
  email: string;
  name: string;
}
const load = (): Stored | null => {
  try {
    return JSON.parse(localStorage.getItem(STORAGE) ?? "null") as Stored | null;
  } catch {
    return null;
  }
};

/** A visitor's calls carry the visitor token (no session): it reaches this visitor's own messages only. */
const asVisitor = (token: string | null) => ({ auth: false, quiet: true, ...(token ? { headers: { "X-Visitor-Token": token } } : {}) });

export default function VisitorChatPanel({ open, onClose }: { readonly open: boolean; readonly onClose: () => void }) {
  const { t } = useTranslation("chat");
  const [stored, setStored] = useState<Stored | null>(load);
  const [email, setEmail] = useState(stored?.email ?? "");
  const [name, setName] = useState(stored?.name ?? "");
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    if (!stored) return;
    try {
      const results = await crown.results((api) => api.chat.visitor.conversation.$get(), asVisitor(stored.token));
      setMessages(results.messages);
      await crown.call((api) => api.chat.visitor.read.$post(), asVisitor(stored.token));
    } catch (e) {
      if (e instanceof ApiError && e.httpStatus === 404) {
        // The token expired or is unknown: start again with the e-mail address.
        localStorage.removeItem(STORAGE);
        setStored(null);
      }
    }
  }, [stored]);

  useEffect(() => {
    if (!open || !stored) return;
    void refresh();
    const t = window.setInterval(() => void refresh(), 10_000);
    return () => window.clearInterval(t);
  }, [open, stored, refresh]);

  const send = async (text: string) => {
    setError(null);
    const results = await crown
      .results((api) => api.chat.visitor.messages.$post({ json: { email: stored?.email ?? email, name: stored?.name ?? name, text } }), asVisitor(stored?.token ?? null))
      .catch((e: unknown) => {
      if (e instanceof ApiError && Object.keys(e.errors).length > 0) throw new Error(Object.values(e.errors)[0]?.[0] ?? e.message);
      throw new Error(messageOf(e, t("messages.error")));
    });
    if (results.token) {
      const next = { token: results.token, email: email.trim(), name: name.trim() };
      localStorage.setItem(STORAGE, JSON.stringify(next));
      setStored(next);
    }
    setMessages((list) => mergeMessages(list, [results.message]));
  };

  if (!open) return null;
  return (
    <section className="chat-panel" role="dialog" aria-label={t("panel.label")}>
      <header className="chat-panel-header">
        <h2>{t("panel.title")}</h2>
        <button type="button" className="icon-btn" aria-label={t("panel.close")} onClick={onClose}>
          ×
        </button>
      </header>
      {stored ? null : (
        <div className="chat-composer">
          <label className="field">
            <span>{t("panel.visitorEmail")}</span>
            <input className="chat-input" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <label className="field">
            <span>{t("panel.visitorName")}</span>
            <input className="chat-input" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
        </div>
      )}
      {error ? (
        <p className="form-message form-message-error" role="alert">
          {error}
        </p>
      ) : null}
      <MessageList messages={messages} mine="customer" emptyText={t("panel.visitorEmpty")} />
      <Composer onSend={(text) => send(text)} label={t("panel.composer")} images={false} />
    </section>
  );
}
