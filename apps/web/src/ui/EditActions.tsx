import { Button } from "react-aria-components";

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
  return (
    <div className="form-actions">
      {editing ? (
        <>
          <Button className="btn btn-secondary" onPress={onCancel}>
            Cancel
          </Button>
          <Button type="submit" className="btn btn-primary" isDisabled={pending}>
            {submitLabel}
          </Button>
        </>
      ) : (
        <Button className="btn btn-primary" onPress={onEdit} isDisabled={!canEdit}>
          Edit
        </Button>
      )}
    </div>
  );
}
