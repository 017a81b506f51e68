import { useEffect, useState } from "react";
import { Button, ComboBox, FieldError, Input, Label, ListBox, ListBoxItem, Popover, Text } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { NO_PHYSICIAN_ID, NO_PHYSICIAN_NAME, searchPhysicians } from "../api/onboarding.ts";
import type { PhysicianRef } from "../api/types.ts";

const NO_PHYSICIAN: PhysicianRef = { identifier: NO_PHYSICIAN_ID, name: NO_PHYSICIAN_NAME };
/** A search that failed (the server busy or out of reach) is sent once more after this long. */
const RETRY_MS = 1500;

/** Provider / practice search: asks the server once more than 2 characters are typed; 'No Physician' is always an option. */
export function ProviderSearch(p: {
  readonly value: PhysicianRef | null;
  readonly onChange: (v: PhysicianRef | null) => void;
  readonly error?: string | undefined;
  readonly isReadOnly?: boolean;
  readonly label?: string;
}) {
  const { t } = useTranslation("app");
  // 'No Physician' is shown in the portal's language; its identifier is what the server reads.
  const nameOf = (x: PhysicianRef) => (x.identifier === NO_PHYSICIAN_ID ? t("provider.none") : x.name);
  const [text, setText] = useState(p.value ? nameOf(p.value) : "");
  const [items, setItems] = useState<ReadonlyArray<PhysicianRef>>([]);
  const [searching, setSearching] = useState(false);
  /** Whether a search has answered for the text as it is: before that the list says nothing (issue 22, item 13). */
  const [answered, setAnswered] = useState(false);
  /** The search failed twice for the text as it is: the list says so instead of "no match". */
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    setText(p.value ? nameOf(p.value) : "");
    // `t` only while a provider is chosen ('No Physician' in a new language): a new `t` arrives whenever a
    // namespace finishes loading, and with no provider chosen it would wipe what the user is typing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [p.value?.identifier, p.value?.name, p.value ? t : null]);

  useEffect(() => {
    const q = text.trim();
    setAnswered(false);
    setFailed(false);
    if (q.length <= 2 || (p.value && q === nameOf(p.value))) {
      setItems([]);
      return;
    }
    const ctrl = new AbortController();
    let timer: number;
    const search = (attempt: number) => {
      setSearching(true);
      searchPhysicians(q, ctrl.signal)
        .then((r) => {
          const list = [...(r.results ?? [])];
          if (!list.some((x) => x.identifier === NO_PHYSICIAN_ID || x.name === NO_PHYSICIAN_NAME)) list.push(NO_PHYSICIAN);
          setItems(list);
          setAnswered(true);
          setSearching(false);
          // Typing the exact name (e.g. No Physician) selects it.
          const exact = list.find((x) => x.name.toLowerCase() === q.toLowerCase() || nameOf(x).toLowerCase() === q.toLowerCase());
          if (exact) p.onChange(exact);
        })
        .catch((e: unknown) => {
          if (e instanceof DOMException && e.name === "AbortError") return;
          // Without an answer, 'No Physician' still works: it needs no lookup.
          const typedNone = q.toLowerCase() === NO_PHYSICIAN_NAME.toLowerCase() || q.toLowerCase() === t("provider.none").toLowerCase();
          if (typedNone) {
            setItems([NO_PHYSICIAN]);
            setAnswered(true);
            setSearching(false);
            p.onChange(NO_PHYSICIAN);
            return;
          }
          // A busy or unreachable server is not "no match": ask once more, then say the search failed.
          if (attempt === 0) {
            timer = window.setTimeout(() => search(1), RETRY_MS);
            return;
          }
          setItems([]);
          setFailed(true);
          setAnswered(true);
          setSearching(false);
        });
    };
    timer = window.setTimeout(() => search(0), 250);
    return () => {
      ctrl.abort();
      window.clearTimeout(timer);
      setSearching(false);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  const shown = p.value && !items.some((i) => i.identifier === p.value?.identifier) ? [p.value, ...items] : items;

  return (
    <ComboBox
      className="field combo"
      name="physician_identifier"
      items={shown}
      inputValue={text}
      onInputChange={(typed) => {
        setText(typed);
        if (p.value && typed !== nameOf(p.value)) p.onChange(null);
      }}
      selectedKey={p.value?.identifier ?? null}
      onSelectionChange={(k) => {
        const item = shown.find((i) => i.identifier === k) ?? null;
        p.onChange(item);
        if (item) setText(nameOf(item));
      }}
      allowsCustomValue
      // Opens while the search is on its way, so the answers appear in an open list.
      allowsEmptyCollection
      menuTrigger="input"
      isInvalid={Boolean(p.error)}
      isReadOnly={p.isReadOnly ?? false}
      validationBehavior="aria"
    >
      <Label>{p.label ?? t("provider.label")}</Label>
      <div className="combo-input">
        <Input placeholder={t("provider.placeholder")} />
        <Button className="combo-btn" aria-label={t("provider.show")}>
          <svg viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">
            <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.6" />
          </svg>
        </Button>
      </div>
      <Text slot="description">{searching ? t("provider.searching") : t("provider.hint")}</Text>
      <FieldError>{p.error}</FieldError>
      <Popover className="popover combo-popover">
        <ListBox className="listbox" renderEmptyState={() => (answered && !searching ? <div className="listbox-empty">{t(failed ? "provider.failed" : "provider.noMatch")}</div> : null)}>
          {(item: PhysicianRef) => (
            <ListBoxItem id={item.identifier} className="listbox-item" textValue={nameOf(item)}>
              {nameOf(item)}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
