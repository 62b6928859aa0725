/**
 * A number as a person types it on an Indonesian (or English) screen: antd's InputNumber `parser` in the
 * console, and the server's reading of numeric strings (server/src/lib/ids.ts `decimal`), so an API call
 * sending '10.000' means what the screen means.
 * Thousands grouped by '.' ('10.000', '1.000.000', with a decimal comma: '1.000,5') or by ','
 * ('10,000', '1,000.5'), the first group not starting with 0, are read as thousands, and a lone decimal comma ('10,5') as a decimal point,
 * so '10.000' is ten thousand as the console writes it, never 10. Anything else ('20000.5', '1.5') is
 * left to the field, whose rules refuse a fraction with their message rather than change it.
 */
export function readTypedNumber(text: string | undefined): string {
  const t = (text ?? '').replace(/[\s\u00a0]+/g, '');
  if (/^[+-]?[1-9]\d{0,2}(\.\d{3})+(,\d+)?$/.test(t)) return t.replaceAll('.', '').replace(',', '.');
  if (/^[+-]?[1-9]\d{0,2}(,\d{3})+(\.\d+)?$/.test(t)) return t.replaceAll(',', '');
  if (/^[+-]?\d+,\d+$/.test(t)) return t.replace(',', '.');
  return t;
}
