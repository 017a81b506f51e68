import type { ReactNode } from "react";
import { Button, Checkbox, FieldError, Input, Label, Text, TextField } from "react-aria-components";
import { uiMessage } from "../i18n/i18n.ts";

/** Form fields built on react-aria-components; the message under a field is the spec's (or the server's). */

export interface FieldProps {
  readonly name: string;
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error?: string | undefined;
  readonly type?: "text" | "email" | "password" | "tel" | "date" | "search";
  readonly autoComplete?: string;
  readonly description?: ReactNode;
  readonly isReadOnly?: boolean;
  readonly isDisabled?: boolean;
  readonly isRequired?: boolean;
  readonly inputMode?: "numeric" | "tel" | "email" | "text";
  readonly maxLength?: number;
  readonly placeholder?: string;
  readonly max?: string;
  readonly autoFocus?: boolean;
}

export function Field(p: FieldProps) {
  return (
    <TextField
      className="field"
      name={p.name}
      value={p.value}
      onChange={p.onChange}
      isInvalid={Boolean(p.error)}
      isReadOnly={p.isReadOnly ?? false}
      isDisabled={p.isDisabled ?? false}
      isRequired={p.isRequired ?? false}
      type={p.type ?? "text"}
      validationBehavior="aria"
      {...(p.autoComplete ? { autoComplete: p.autoComplete } : {})}
      {...(p.inputMode ? { inputMode: p.inputMode } : {})}
      {...(p.maxLength ? { maxLength: p.maxLength } : {})}
      {...(p.autoFocus ? { autoFocus: true } : {})}
    >
      <Label>{p.label}</Label>
      <Input {...(p.placeholder ? { placeholder: p.placeholder } : {})} {...(p.max ? { max: p.max } : {})} />
      {p.description ? <Text slot="description">{p.description}</Text> : null}
      <FieldError>{p.error ? uiMessage(p.error) : null}</FieldError>
    </TextField>
  );
}

export function CheckField(p: {
  readonly name: string;
  readonly isSelected: boolean;
  readonly onChange: (v: boolean) => void;
  readonly children: ReactNode;
  readonly error?: string | undefined;
}) {
  return (
    <div className="check-field">
      <Checkbox name={p.name} isSelected={p.isSelected} onChange={p.onChange} isInvalid={Boolean(p.error)} className="checkbox">
        <span className="checkbox-box" aria-hidden="true">
          <svg viewBox="0 0 18 18">
            <polyline points="2 9 7 14 16 4" />
          </svg>
        </span>
        <span className="checkbox-label">{p.children}</span>
      </Checkbox>
      {p.error ? (
        <div className="field-error" role="alert">
          {uiMessage(p.error)}
        </div>
      ) : null}
    </div>
  );
}

export function FormMessage({ tone, children }: { readonly tone: "error" | "success" | "info"; readonly children: ReactNode }) {
  return (
    <div className={`form-message form-message-${tone}`} role={tone === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

export function SubmitButton({ children, isPending, className }: { readonly children: ReactNode; readonly isPending?: boolean; readonly className?: string }) {
  return (
    // Not RAC's isPending: its live announcer leaves an unlabeled role=img node that axe flags.
    <Button type="submit" className={`btn btn-primary ${className ?? ""}`} isDisabled={isPending ?? false} aria-busy={isPending ?? false}>
      {children}
    </Button>
  );
}
