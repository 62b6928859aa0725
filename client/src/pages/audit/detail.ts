import { formatRupiah } from '../../lib/format';

type Translate = (key: string, fallback?: string) => string;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A bank account as the audit log stores it: `BCA 1234567890 (Budi Setiawan)`. */
const isAccount = (v: unknown): v is { bank: unknown; number: unknown; name: unknown } => isRecord(v) && 'bank' in v && 'number' in v && 'name' in v;

/** Amounts of money the log records under these keys are whole rupiah. */
const MONEY = new Set(['nominal']);

/**
 * The details of one audit row as short text: `price: 0 → 77`, a before/after pair by its changed
 * fields, else `key: value`. Amounts read `Rp 15.000`, a bank account `BCA 1234567890 (Budi Setiawan)`,
 * and a withdrawal decision's states in the screen's language (`Diajukan → Diterima`).
 */
export function auditDetail(action: string, details: Record<string, unknown>, t: Translate): string {
  const show = (key: string, v: unknown): string => {
    if (v === null || v === undefined) return '-';
    if (MONEY.has(key) && typeof v === 'number') return formatRupiah(v);
    if (isAccount(v)) {
      const text = [v.bank, v.number].filter((p) => p !== null && p !== undefined && p !== '').join(' ');
      const name = v.name === null || v.name === undefined || v.name === '' ? '' : `(${String(v.name)})`;
      return [text, name].filter(Boolean).join(' ') || '-';
    }
    // A withdrawal's states (its decision's before and after).
    if (action.startsWith('withdraw.') && key === 'status' && typeof v === 'string') return t(`withdraw.status.${v}`, v);
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  const parts: string[] = [];
  const { from, to, ...rest } = details;
  for (const [key, value] of Object.entries(rest)) {
    parts.push(isRecord(value) && 'from' in value && 'to' in value ? `${key}: ${show(key, value.from)} → ${show(key, value.to)}` : `${key}: ${show(key, value)}`);
  }
  if (isRecord(from) && isRecord(to) && !isAccount(to)) {
    for (const key of Object.keys(to)) if (show(key, from[key]) !== show(key, to[key])) parts.push(`${key}: ${show(key, from[key])} → ${show(key, to[key])}`);
  } else if ('from' in details || 'to' in details) {
    parts.push(`${show('status', from)} → ${show('status', to)}`);
  }
  return parts.join('; ');
}
