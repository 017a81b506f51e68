import { LOCALES } from "@crown/core/shared/dates";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { fileAt } from "@crown/client/extras";
import { crown } from "../api/crown.ts";
import { currentLanguage } from "../i18n/language.ts";
import type { ChatAttachment, ChatMessage } from "./api.ts";

/** An attachment needs the bearer token, so it is fetched and shown from a blob URL. */
function AttachmentImage({ attachment }: { attachment: ChatAttachment }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    fileAt(crown, attachment.url, { quiet: true })
      .then((blob) => {
        url = URL.createObjectURL(blob);
        if (live) setSrc(url);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [attachment.url]);
  return src ? (
    <a href={src} target="_blank" rel="noopener" className="chat-image-link">
      <img src={src} alt={attachment.file_name} className="chat-image" />
    </a>
  ) : (
    <span className="chat-image chat-image-loading">{attachment.file_name}</span>
  );
}

/** A message's time of day: in English the browser's own way (as before), in another language that language's. */
const time = (iso: string) => {
  const language = currentLanguage();
  return new Date(iso).toLocaleTimeString(language === "en" ? [] : LOCALES[language], { hour: "2-digit", minute: "2-digit" });
};

/** The messages of a conversation, oldest first; `mine` is the side the viewer writes on. */
export function MessageList({ messages, mine, emptyText }: { messages: ReadonlyArray<ChatMessage>; mine: "customer" | "support"; emptyText: string }) {
  const { t } = useTranslation("chat");
  const end = useRef<HTMLLIElement | null>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [messages.length]);
  if (messages.length === 0) return <p className="muted chat-empty">{emptyText}</p>;
  const lastOwn = [...messages].reverse().find((m) => m.side === mine);
  return (
    <ol className="chat-messages" aria-live="polite" aria-label={t("messages.label")}>
      {messages.map((m) => (
        <li key={m.identifier} className={`chat-message ${m.side === mine ? "own" : "theirs"}`} data-testid="chat-message">
          <span className="chat-author">{m.side === mine ? t("messages.you") : m.author.name}</span>
          {m.text ? <p className="chat-text">{m.text}</p> : null}
          {m.attachments.map((a) => (
            <AttachmentImage key={a.identifier} attachment={a} />
          ))}
          <span className="chat-meta">
            <time dateTime={m.created_at}>{time(m.created_at)}</time>
            {m.identifier === lastOwn?.identifier && m.read_at ? <span className="chat-seen">{` · ${t("messages.seen")}`}</span> : null}
          </span>
        </li>
      ))}
      <li ref={end} aria-hidden="true" className="chat-end" />
    </ol>
  );
}

/** Adds or replaces messages by identifier, keeping the order by time. */
export const mergeMessages = (list: ReadonlyArray<ChatMessage>, more: ReadonlyArray<ChatMessage>): ChatMessage[] => {
  const byId = new Map(list.map((m) => [m.identifier, m]));
  for (const m of more) byId.set(m.identifier, m);
  return [...byId.values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.identifier.localeCompare(b.identifier));
};

/** The text box, the image picker and Send, shared by the widget and the inbox. */
export function Composer({ onSend, label, images: allowImages = true }: { onSend: (text: string, images: File[]) => Promise<void>; label: string; images?: boolean }) {
  const { t } = useTranslation("chat");
  const [text, setText] = useState("");
  const [images, setImages] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement | null>(null);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy || (text.trim() === "" && images.length === 0)) return;
    setBusy(true);
    setError(null);
    try {
      await onSend(text.trim(), images);
      setText("");
      setImages([]);
      if (fileInput.current) fileInput.current.value = "";
    } catch (e) {
      setError(e instanceof Error ? e.message : t("messages.error"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="chat-composer" onSubmit={submit}>
      {error ? (
        <p className="form-message form-message-error" role="alert">
          {error}
        </p>
      ) : null}
      <label className="sr-only" htmlFor={`${label}-text`}>
        {label}
      </label>
      <textarea
        id={`${label}-text`}
        className="chat-input"
        rows={2}
        maxLength={5000}
        placeholder={t("messages.placeholder")}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) void submit(e);
        }}
      />
      <div className="chat-composer-row">
        {allowImages ? (
        <label className="btn btn-ghost btn-sm chat-attach">
          {t("messages.attach")}
          <input
            ref={fileInput}
            type="file"
            accept="image/png,image/jpeg"
            multiple
            className="sr-only"
            onChange={(e) => setImages([...(e.target.files ?? [])].slice(0, 4))}
          />
        </label>
        ) : null}
        {images.length > 0 ? <span className="small muted">{images.map((f) => f.name).join(", ")}</span> : null}
        <span className="spacer" />
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {t("messages.send")}
        </button>
      </div>
    </form>
  );
}
