import { useCallback, useEffect, useState } from "react";
import { messageOf } from "../api/client.ts";
import { useSession } from "../session/store.ts";
import { assign, type ChatMessage, closeConversation, inbox, type InboxRow, reopenConversation, type SupportConversation, supportConversation, supportReply } from "../chat/api.ts";
import { useLiveEvent } from "../chat/live.ts";
import { Composer, mergeMessages, MessageList } from "../chat/Messages.tsx";
import "../chat/chat.css";

const who = (row: Pick<InboxRow, "user" | "visitor_email" | "visitor_name">) =>
  row.user ? `${row.user.first_name} ${row.user.last_name}`.trim() || row.user.email : `${row.visitor_name ?? "Visitor"} (${row.visitor_email ?? ""})`;

/**
 * The support inbox (admins and reviewers): conversations by user, unread first; one conversation
 * with the user's babies and latest reports beside it (each such read is audited by the server);
 * reply, assign, close. New messages arrive over the live stream.
 */
export default function SupportInbox() {
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
      setError(messageOf(e));
    }
  }, [status, mine]);

  const openThread = useCallback(async (id: string) => {
    try {
      setThread((await supportConversation(id)).results);
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  }, []);

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
    return <p className="form-message form-message-error">The support inbox is for Crown's support team.</p>;
  }

  const act = async (f: () => Promise<unknown>) => {
    try {
      await f();
      if (selected) await openThread(selected);
      await refresh();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const conversation = thread?.conversation;
  return (
    <div>
      <h1>Support inbox</h1>
      {error ? (
        <p className="form-message form-message-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="support-inbox">
        <nav aria-label="Conversations">
          <div className="support-filters">
            {(["open", "closed", "all"] as const).map((s) => (
              <button key={s} type="button" className={`btn btn-sm ${status === s ? "btn-primary" : "btn-secondary"}`} aria-pressed={status === s} onClick={() => setStatus(s)}>
                {s[0]!.toUpperCase() + s.slice(1)}
              </button>
            ))}
            <button type="button" className={`btn btn-sm ${mine ? "btn-primary" : "btn-secondary"}`} aria-pressed={mine} onClick={() => setMine((m) => !m)}>
              Mine
            </button>
          </div>
          {rows.length === 0 ? <p className="muted">No conversations.</p> : null}
          <ul className="support-list">
            {rows.map((row) => (
              <li key={row.identifier}>
                <button type="button" aria-current={row.identifier === selected} onClick={() => setSelected(row.identifier)} data-testid="support-conversation">
                  <strong>{who(row)}</strong>
                  {row.unread > 0 ? <span className="unread-count">{row.unread} unread</span> : null}
                  <span className="small muted">{row.last_message ? row.last_message.text.slice(0, 80) || "[image]" : ""}</span>
                  <span className="small muted">{row.status === "closed" ? "Closed" : row.assignee_identifier ? (row.assignee_identifier === session.userIdentifier ? "Assigned to you" : "Assigned") : "Unassigned"}</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <section className="support-thread" aria-label="Conversation">
          {conversation ? (
            <>
              <header className="support-thread-header">
                <strong>{thread.context ? `${thread.context.user.first_name} ${thread.context.user.last_name}` : conversation.visitor_email}</strong>
                <span className="spacer" />
                {conversation.assignee_identifier !== session.userIdentifier ? (
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void act(() => assign(conversation.identifier))}>
                    Assign to me
                  </button>
                ) : null}
                {conversation.status === "open" ? (
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void act(() => closeConversation(conversation.identifier))}>
                    Close
                  </button>
                ) : (
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void act(() => reopenConversation(conversation.identifier))}>
                    Reopen
                  </button>
                )}
              </header>
              <MessageList messages={thread.messages} mine="support" emptyText="No messages yet." />
              <Composer
                label="Reply"
                onSend={async (text, images) => {
                  const { results } = await supportReply(conversation.identifier, text, images);
                  setThread((t) => (t ? { ...t, conversation: results.conversation, messages: mergeMessages(t.messages, [results.message]) } : t));
                  void refresh();
                }}
              />
            </>
          ) : (
            <p className="muted chat-empty">Choose a conversation.</p>
          )}
        </section>
        <aside className="support-context" aria-label="About this user">
          {thread?.context ? (
            <>
              <h2>{`${thread.context.user.first_name} ${thread.context.user.last_name}`}</h2>
              <p className="small">
                {thread.context.user.email}
                <br />
                {thread.context.user.type} · {thread.context.user.status}
              </p>
              <h3>Babies</h3>
              {thread.context.babies.length === 0 ? (
                <p className="muted small">None.</p>
              ) : (
                <ul>
                  {thread.context.babies.map((b) => (
                    <li key={b.identifier}>
                      {b.name} ({b.date_of_birth})
                    </li>
                  ))}
                </ul>
              )}
              <h3>Latest reports</h3>
              {thread.context.reports.length === 0 ? (
                <p className="muted small">None.</p>
              ) : (
                <ul>
                  {thread.context.reports.map((r) => (
                    <li key={r.identifier}>
                      {r.baby_name}: {r.status.replace(/_/g, " ")}
                      {r.submitted_at ? ` (${new Date(r.submitted_at).toLocaleDateString()})` : ""}
                    </li>
                  ))}
                </ul>
              )}
              <p className="small muted">Opening a conversation is recorded in the audit log.</p>
            </>
          ) : thread ? (
            <p className="muted small">A visitor from the public pages: no account.</p>
          ) : null}
        </aside>
      </div>
    </div>
  );
}
