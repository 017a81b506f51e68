import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { useSession } from "../session/store.ts";
import { assign, type ChatMessage, closeConversation, inbox, type InboxRow, reopenConversation, type SupportConversation, supportConversation, supportReply } from "../chat/api.ts";
import { useLiveEvent } from "../chat/live.ts";
import { Composer, mergeMessages, MessageList } from "../chat/Messages.tsx";
import { day } from "../i18n/dates.ts";
import "../chat/chat.css";

const who = (row: Pick<InboxRow, "user" | "visitor_email" | "visitor_name">, visitor: string) =>
  row.user ? `${row.user.first_name} ${row.user.last_name}`.trim() || row.user.email : `${row.visitor_name ?? visitor} (${row.visitor_email ?? ""})`;

/**
 * The support inbox (admins and reviewers): conversations by user, unread first; one conversation
 * with the user's babies and latest reports beside it (each such read is audited by the server);
 * reply, assign, close. New messages arrive over the live stream.
 */
export default function SupportInbox() {
  const { t } = useTranslation("support");
  const session = useSession();
  const [status, setStatus] = useState<"open" | "closed" | "all">("open");
  const [mine, setMine] = useState(false);
  const [rows, setRows] = useState<InboxRow[]>([]);
  const [selected, setSelected] = useState<string | null>(() => new URLSearchParams(window.location.search).get("conversation"));
  const [thread, setThread] = useState<SupportConversation | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      setRows([...(await inbox(1, status, mine)).results.data]);
      setError(null);
    } catch (e) {
      setError(messageOf(e, t("chat:messages.error")));
    }
  }, [status, mine, t]);

  const openThread = useCallback(async (id: string) => {
    try {
      setThread((await supportConversation(id)).results);
      setError(null);
    } catch (e) {
      setError(messageOf(e, t("chat:messages.error")));
    }
  }, [t]);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEffect(() => {
    if (selected) void openThread(selected).then(refresh);
    else setThread(null);
  }, [selected, openThread, refresh]);

  useLiveEvent("chat.message", (d: { conversation: { identifier: string }; message: ChatMessage }) => {
    if (d.conversation.identifier === selected) {
      setThread((t) => (t ? { ...t, messages: mergeMessages(t.messages, [d.message]) } : t));
      // The open conversation is being read: mark it (the server sends the receipt).
      if (d.message.side === "customer") void openThread(d.conversation.identifier);
    }
    void refresh();
  });
  useLiveEvent("chat.read", (d: { conversation_identifier: string; reader: string; read_at: string }) => {
    if (d.conversation_identifier !== selected || d.reader !== "customer") return;
    setThread((t) => (t ? { ...t, messages: t.messages.map((m) => (m.side === "support" && !m.read_at ? { ...m, read_at: d.read_at } : m)) } : t));
  });
  useLiveEvent("chat.conversation", () => void refresh());

  if (!session || (session.userRole !== "admin" && session.userRole !== "reviewer")) {
    return <p className="form-message form-message-error">{t("onlyStaff")}</p>;
  }

  const act = async (f: () => Promise<unknown>) => {
    try {
      await f();
      if (selected) await openThread(selected);
      await refresh();
    } catch (e) {
      setError(messageOf(e, t("chat:messages.error")));
    }
  };

  const conversation = thread?.conversation;
  return (
    <div>
      <h1>{t("title")}</h1>
      {error ? (
        <p className="form-message form-message-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="support-inbox">
        <nav aria-label={t("conversations")}>
          <div className="support-filters">
            {(["open", "closed", "all"] as const).map((s) => (
              <button key={s} type="button" className={`btn btn-sm ${status === s ? "btn-primary" : "btn-secondary"}`} aria-pressed={status === s} onClick={() => setStatus(s)}>
                {t(`filters.${s}`)}
              </button>
            ))}
            <button type="button" className={`btn btn-sm ${mine ? "btn-primary" : "btn-secondary"}`} aria-pressed={mine} onClick={() => setMine((m) => !m)}>
              {t("filters.mine")}
            </button>
          </div>
          {rows.length === 0 ? <p className="muted">{t("none")}</p> : null}
          <ul className="support-list">
            {rows.map((row) => (
              <li key={row.identifier}>
                <button type="button" aria-current={row.identifier === selected} onClick={() => setSelected(row.identifier)} data-testid="support-conversation">
                  <strong>{who(row, t("visitor"))}</strong>
                  {row.unread > 0 ? <span className="unread-count">{t("unread", { count: row.unread })}</span> : null}
                  <span className="small muted">{row.last_message ? row.last_message.text.slice(0, 80) || t("image") : ""}</span>
                  <span className="small muted">{t(row.status === "closed" ? "state.closed" : row.assignee_identifier ? (row.assignee_identifier === session.userIdentifier ? "state.assignedToYou" : "state.assigned") : "state.unassigned")}</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <section className="support-thread" aria-label={t("conversation")}>
          {conversation ? (
            <>
              <header className="support-thread-header">
                <strong>{thread.context ? `${thread.context.user.first_name} ${thread.context.user.last_name}` : conversation.visitor_email}</strong>
                <span className="spacer" />
                {conversation.assignee_identifier !== session.userIdentifier ? (
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void act(() => assign(conversation.identifier))}>
                    {t("assignToMe")}
                  </button>
                ) : null}
                {conversation.status === "open" ? (
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void act(() => closeConversation(conversation.identifier))}>
                    {t("close")}
                  </button>
                ) : (
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void act(() => reopenConversation(conversation.identifier))}>
                    {t("reopen")}
                  </button>
                )}
              </header>
              <MessageList messages={thread.messages} mine="support" emptyText={t("noMessages")} />
              <Composer
                label={t("reply")}
                onSend={async (text, images) => {
                  const { results } = await supportReply(conversation.identifier, text, images);
                  setThread((t) => (t ? { ...t, conversation: results.conversation, messages: mergeMessages(t.messages, [results.message]) } : t));
                  void refresh();
                }}
              />
            </>
          ) : (
            <p className="muted chat-empty">{t("choose")}</p>
          )}
        </section>
        <aside className="support-context" aria-label={t("aboutUser")}>
          {thread?.context ? (
            <>
              <h2>{`${thread.context.user.first_name} ${thread.context.user.last_name}`}</h2>
              <p className="small">
                {thread.context.user.email}
                <br />
                {t(`userType.${thread.context.user.type}`, { defaultValue: thread.context.user.type })} · {t(`common:accountStatus.${thread.context.user.status}`, { defaultValue: thread.context.user.status })}
              </p>
              <h3>{t("babies")}</h3>
              {thread.context.babies.length === 0 ? (
                <p className="muted small">{t("nothing")}</p>
              ) : (
                <ul>
                  {thread.context.babies.map((b) => (
                    <li key={b.identifier}>
                      {b.name} ({b.date_of_birth})
                    </li>
                  ))}
                </ul>
              )}
              <h3>{t("reports")}</h3>
              {thread.context.reports.length === 0 ? (
                <p className="muted small">{t("nothing")}</p>
              ) : (
                <ul>
                  {thread.context.reports.map((r) => (
                    <li key={r.identifier}>
                      {r.baby_name}: {t(`reportStatus.${r.status}`, { defaultValue: r.status.replace(/_/g, " ") })}
                      {r.submitted_at ? ` (${day(r.submitted_at)})` : ""}
                    </li>
                  ))}
                </ul>
              )}
              <p className="small muted">{t("audited")}</p>
            </>
          ) : thread ? (
            <p className="muted small">{t("visitorNoAccount")}</p>
          ) : null}
        </aside>
      </div>
    </div>
  );
}
