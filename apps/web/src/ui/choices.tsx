import { FieldError, Label, Radio, RadioGroup, Text } from "react-aria-components";

/** A radio group (react-aria-components) with the spec's message under it. */
export function Choice(p: {
  readonly name: string;
  readonly label: string;
  readonly options: ReadonlyArray<{ value: string; label: string }>;
  readonly value: string;
  readonly onChange: (v: string) => void;
  readonly error?: string | undefined;
  readonly isReadOnly?: boolean;
  readonly description?: string;
  readonly layout?: "row" | "column";
}) {
  return (
    <RadioGroup
      className={`field choice choice-${p.layout ?? "row"}`}
      name={p.name}
      value={p.value || null}
      onChange={p.onChange}
      isInvalid={Boolean(p.error)}
      isReadOnly={p.isReadOnly ?? false}
      validationBehavior="aria"
    >
      <Label>{p.label}</Label>
      {p.description ? <Text slot="description">{p.description}</Text> : null}
      <div className="choice-options">
        {p.options.map((o) => (
          <Radio key={o.value} value={o.value} className="choice-option">
            {o.label}
          </Radio>
        ))}
      </div>
      <FieldError>{p.error}</FieldError>
    </RadioGroup>
  );
}

export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
