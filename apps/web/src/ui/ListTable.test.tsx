import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ListTable, type ListColumn } from "./ListTable.tsx";

/** Every list of the portal is this one table (issue 43): its states, its columns, its padding, on the server's markup. */

interface Row {
  readonly id: string;
  readonly name: string;
  readonly email: string;
}
const columns: ReadonlyArray<ListColumn<Row> | false> = [
  { header: "Name", cell: (r) => r.name },
  { header: "Email", cell: (r) => r.email },
  false,
  { header: "Download", headerHidden: true, className: "cell-action", stackLabel: false, cell: (r) => <button type="button">{r.id}</button> },
];
const rows: ReadonlyArray<Row> = [
  { id: "a", name: "Ada Lovelace", email: "ada@example.com" },
  { id: "b", name: "Mary Somerville", email: "mary@example.com" },
];
const render = (props: Partial<Parameters<typeof ListTable<Row>>[0]>) => renderToStaticMarkup(<ListTable<Row> rows={rows} columns={columns} rowKey={(r) => r.id} empty="No one yet" {...props} />);

describe("ListTable", () => {
  it("is a spinner until the first answer, and the empty words after an empty one", () => {
    expect(render({ rows: null })).toContain('role="status"');
    expect(render({ rows: null })).not.toContain("<table");
    expect(render({ rows: [] })).toBe('<p class="empty">No one yet</p>');
  });

  it("keeps its header with no row when asked, the empty words in a row across it", () => {
    const html = render({ rows: [], emptyInTable: true });
    expect(html.match(/<th scope="col">/g)).toHaveLength(3);
    expect(html).toContain('<tr><td colSpan="3">No one yet</td></tr>');
  });

  it("says why the list could not be read, above it", () => {
    const html = render({ rows: [], error: "The server is away" });
    expect(html.indexOf("The server is away")).toBeGreaterThanOrEqual(0);
    expect(html.indexOf("The server is away")).toBeLessThan(html.indexOf("No one yet"));
  });

  it("names its columns in header cells, leaves out a column that is not the reader's, and labels every cell but the title for a phone", () => {
    const html = render({ caption: "Patients, page 1" });
    expect(html).toContain('<caption class="sr-only">Patients, page 1</caption>');
    expect(html.match(/<th scope="col">/g)).toHaveLength(3);
    expect(html).toContain('<th scope="col"><span class="sr-only">Download</span></th>');
    expect(html).toContain("<td>Ada Lovelace</td>");
    expect(html).toContain('<td data-label="Email">ada@example.com</td>');
    expect(html).toContain('<td class="cell-action"><button type="button">a</button></td>');
    expect(html).toContain('class="table table-stack"');
  });

  it("pads a short page to its size with rows a screen reader skips, one cell across", () => {
    const html = render({ padTo: 5 });
    expect(html.match(/<tr class="pad-row" aria-hidden="true"><td colSpan="3">/gi)).toHaveLength(3);
    expect(html.match(/<tr/g)).toHaveLength(1 + 5);
  });

  it("keeps a narrow table's columns on a phone when asked, and marks rows as the caller says", () => {
    const html = render({ stacked: false, className: "results-table", rowClassName: (r) => (r.id === "a" ? "unread" : undefined) });
    expect(html).toContain('class="table results-table"');
    expect(html.match(/<tr class="unread">/g)).toHaveLength(1);
  });
});
