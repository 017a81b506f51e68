import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";

/**
 * The actions of a form that stays read-only until Edit (the profile, a child): Cancel and the
 * submit button while editing, otherwise Edit.
 */
export function EditActions({ editing, pending, submitLabel, onEdit, onCancel, canEdit = true }: {
  editing: boolean;
  pending: boolean;
  submitLabel: string;
  onEdit: () => void;
  onCancel: () => void;
  canEdit?: boolean;
}) {
  const { t } = useTranslation("app");
  return (
    <div className="form-actions">
      {editing ? (
        <>
          <Button className="btn btn-secondary" onPress={onCancel}>
            {t("edit.cancel")}
          </Button>
          <Button type="submit" className="btn btn-primary" isDisabled={pending}>
            {submitLabel}
          </Button>
        </>
      ) : (
        <Button className="btn btn-primary" onPress={onEdit} isDisabled={!canEdit}>
          {t("edit.edit")}
        </Button>
      )}
    </div>
  );
}
