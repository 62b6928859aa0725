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

/** The CSV writer loads on the first download, so the lists that offer one do not carry it. */
export async function downloadCsv<T extends Record<string, unknown>>(rows: T[], columns: (keyof T & string)[], fileName: string): Promise<void> {
  const data = rows.map((r) => columns.map((c) => safeCell(r[c])));
  const { unparse } = await import('papaparse');
  const csv = unparse({ fields: columns, data });
  downloadBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), fileName);
}

export function downloadJson(value: unknown, fileName: string): void {
  downloadBlob(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }), fileName);
}
