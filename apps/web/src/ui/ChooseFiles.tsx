import { UPLOAD_ACCEPT } from "@crown/core/capture/limits";
import type { ReactNode } from "react";

/**
 * A button that opens the file chooser for photos and videos (several at once, the kinds an upload
 * takes). The chooser is emptied after each choice, so choosing the same files again is a choice too.
 */
export function ChooseFiles({ children, onChosen }: { children: ReactNode; onChosen: (files: File[]) => void }) {
  return (
    <label className="btn btn-secondary file-btn">
      {children}
      <input
        className="sr-only"
        type="file"
        multiple
        accept={UPLOAD_ACCEPT}
        onChange={(e) => {
          onChosen(Array.from(e.currentTarget.files ?? []));
          e.currentTarget.value = "";
        }}
      />
    </label>
  );
}
