/** A cell that a spreadsheet would read as a formula gets a leading quote. */
export function safeCell(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The CSV text of `rows`: formula cells get a leading quote, and a cell with ';' is quoted too, since a
 * spreadsheet set to the Indonesian list separator would split it there (and read '=…' after it as a
 * formula), as the server's exports do.
 */
export async function csvText<T extends Record<string, unknown>>(rows: T[], columns: (keyof T & string)[]): Promise<string> {
  const data = rows.map((r) => columns.map((c) => safeCell(r[c])));
  const { unparse } = await import('papaparse');
  return unparse({ fields: columns, data }, { quotes: (value: unknown) => typeof value === 'string' && value.includes(';') });
}

/** The CSV writer loads on the first download, so the lists that offer one do not carry it. */
export async function downloadCsv<T extends Record<string, unknown>>(rows: T[], columns: (keyof T & string)[], fileName: string): Promise<void> {
  downloadBlob(new Blob([await csvText(rows, columns)], { type: 'text/csv;charset=utf-8' }), fileName);
}

export function downloadJson(value: unknown, fileName: string): void {
  downloadBlob(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }), fileName);
}
