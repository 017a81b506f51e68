import { useTranslation } from "react-i18next";
import type { PhysicianRef } from "../api/types.ts";
import { RELATIONS } from "./onboarding.ts";
import { Choice } from "../ui/choices.tsx";
import { Field } from "../ui/fields.tsx";
import { ProviderSearch } from "./ProviderSearch.tsx";

export interface BabyValues {
  relation: string;
  physician: PhysicianRef | null;
  first_name: string;
  middle_name: string;
  last_name: string;
  date_of_birth: string;
  referral_code: string;
}

export const emptyBaby: BabyValues = { relation: "", physician: null, first_name: "", middle_name: "", last_name: "", date_of_birth: "", referral_code: "" };

export const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

/** The baby fields shared by /baby-details and the profile's Add New Child. */
export function BabyFields(p: {
  readonly values: BabyValues;
  readonly set: (k: keyof BabyValues, v: BabyValues[keyof BabyValues]) => void;
  readonly errors: Record<string, string>;
  readonly isReadOnly?: boolean;
  readonly withReferral?: boolean;
}) {
  const { t } = useTranslation("app");
  const ro = p.isReadOnly ?? false;
  return (
    <>
      <Choice
        name="relation"
        label={t("baby.relation")}
        options={RELATIONS.map((r) => ({ value: r, label: t(`baby.relations.${r}`) }))}
        value={p.values.relation}
        onChange={(v) => p.set("relation", v)}
        error={p.errors.relation}
        isReadOnly={ro}
      />
      <ProviderSearch value={p.values.physician} onChange={(v) => p.set("physician", v)} error={p.errors.physician_identifier} isReadOnly={ro} />
      <div className="grid-3">
        <Field name="first_name" label={t("baby.firstName")} value={p.values.first_name} onChange={(v) => p.set("first_name", v)} error={p.errors.first_name ?? p.errors.name} isReadOnly={ro} />
        <Field name="middle_name" label={t("baby.middleName")} value={p.values.middle_name} onChange={(v) => p.set("middle_name", v)} error={p.errors.middle_name} isReadOnly={ro} />
        <Field name="last_name" label={t("baby.lastName")} value={p.values.last_name} onChange={(v) => p.set("last_name", v)} error={p.errors.last_name} isReadOnly={ro} />
      </div>
      <Field
        name="date_of_birth"
        label={t("baby.birth")}
        type="date"
        max={today()}
        value={p.values.date_of_birth}
        onChange={(v) => p.set("date_of_birth", v)}
        error={p.errors.date_of_birth}
        isReadOnly={ro}
        description={t("baby.birthHint")}
      />
      {p.withReferral !== false ? (
        <Field name="referral_code" label={t("baby.referral")} value={p.values.referral_code} onChange={(v) => p.set("referral_code", v)} error={p.errors.referral_code} isReadOnly={ro} />
      ) : null}
    </>
  );
}

export const babyFormInput = (v: BabyValues) => ({
  relation: v.relation,
  physician_identifier: v.physician?.identifier ?? "",
  first_name: v.first_name,
  middle_name: v.middle_name,
  last_name: v.last_name,
  date_of_birth: v.date_of_birth,
  referral_code: v.referral_code,
});
