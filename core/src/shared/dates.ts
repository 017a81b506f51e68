/**
 * MM/DD/YYYY, the one way Crown writes a date (spec: "Uploaded on date (MM/DD/YYYY)"), in the portal
 * and in the PDF alike. A YYYY-MM-DD day is that day; a moment is shown in the time zone of whoever
 * formats it (the browser's; the server's for the PDF). Anything unreadable is returned as given.
 */
export const formatUsDate = (value?: string | Date | null): string => {
  if (value === null || value === undefined || value === "") return "";
  const d = typeof value === "string" ? new Date(value.length === 10 ? `${value}T00:00:00` : value) : value;
  if (Number.isNaN(d.getTime())) return typeof value === "string" ? value : "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getMonth() + 1)}/${p(d.getDate())}/${d.getFullYear()}`;
};
