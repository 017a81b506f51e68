/** Attachments shown at first on /uploads, and how many more each Load More adds (spec: 7 and 7). */
export const ATTACHMENTS_STEP = 7;

/**
 * The uploads to show for a budget of attachments: whole uploads only, in order, until the budget is
 * reached (issue 22, item 8: an upload of 5 photos and a video shows together, never 1 photo of it
 * until Load More). The first upload always shows, however many files it has.
 */
export const wholeUploads = <U extends { readonly attachments: ReadonlyArray<unknown> }>(uploads: ReadonlyArray<U>, budget: number): U[] => {
  const shown: U[] = [];
  let files = 0;
  for (const upload of uploads) {
    if (shown.length > 0 && files >= budget) break;
    shown.push(upload);
    files += upload.attachments.length;
  }
  return shown;
};
