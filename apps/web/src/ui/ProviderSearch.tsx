import { useEffect, useState } from "react";
import { Button, ComboBox, FieldError, Input, Label, ListBox, ListBoxItem, Popover, Text } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { NO_PHYSICIAN_ID, NO_PHYSICIAN_NAME, searchPhysicians } from "../api/onboarding.ts";
import type { PhysicianRef } from "../api/types.ts";

const NO_PHYSICIAN: PhysicianRef = { identifier: NO_PHYSICIAN_ID, name: NO_PHYSICIAN_NAME };

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

  useEffect(() => {
    setText(p.value ? nameOf(p.value) : "");
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [p.value?.identifier, p.value?.name, t]);

  useEffect(() => {
    const q = text.trim();
    setAnswered(false);
    if (q.length <= 2 || (p.value && q === nameOf(p.value))) {
      setItems([]);
      return;
    }
    const ctrl = new AbortController();
    const timer = window.setTimeout(() => {
      setSearching(true);
      searchPhysicians(q, ctrl.signal)
        .then((r) => {
          const list = [...(r.results ?? [])];
          if (!list.some((x) => x.identifier === NO_PHYSICIAN_ID || x.name === NO_PHYSICIAN_NAME)) list.push(NO_PHYSICIAN);
          setItems(list);
          setAnswered(true);
          // Typing the exact name (e.g. No Physician) selects it.
          const exact = list.find((x) => x.name.toLowerCase() === q.toLowerCase() || nameOf(x).toLowerCase() === q.toLowerCase());
          if (exact) p.onChange(exact);
        })
        .catch((e: unknown) => {
          if (e instanceof DOMException && e.name === "AbortError") return;
          // Without an answer, 'No Physician' still works: it needs no lookup.
          const typedNone = q.toLowerCase() === NO_PHYSICIAN_NAME.toLowerCase() || q.toLowerCase() === t("provider.none").toLowerCase();
          setItems(typedNone ? [NO_PHYSICIAN] : []);
          setAnswered(true);
          if (typedNone) p.onChange(NO_PHYSICIAN);
        })
        .finally(() => setSearching(false));
    }, 250);
    return () => {
      ctrl.abort();
      window.clearTimeout(timer);
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
        <ListBox className="listbox" renderEmptyState={() => (answered && !searching ? <div className="listbox-empty">{t("provider.noMatch")}</div> : null)}>
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
