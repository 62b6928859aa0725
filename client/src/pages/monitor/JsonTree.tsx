import { useState } from 'react';

/** Collections larger than this are shown as ranges of this many entries. */
export const RANGE_SIZE = 50;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const COLORS = { string: '#389e0d', number: '#d46b08', boolean: '#1d39c4', null: '#8c8c8c', key: '#531dab' };

function Scalar({ value }: { value: Json }) {
  if (value === null) return <span style={{ color: COLORS.null }}>null</span>;
  if (typeof value === 'string') return <span style={{ color: COLORS.string }}>{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span style={{ color: COLORS.number }}>{value}</span>;
  return <span style={{ color: COLORS.boolean }}>{String(value)}</span>;
}

function entriesOf(value: Json): Array<[string, Json]> {
  if (Array.isArray(value)) return value.map((v, i) => [String(i), v]);
  if (value && typeof value === 'object') return Object.entries(value);
  return [];
}

function Toggle({ open, onClick }: { open: boolean; onClick: () => void }) {
  return (
    <button type="button" onClick={onClick} aria-expanded={open} style={{ border: 0, background: 'none', cursor: 'pointer', padding: '0 4px', color: 'inherit' }}>
      {open ? '▾' : '▸'}
    </button>
  );
}

/** A range of a large collection, e.g. `[50 … 99]`, expanded on demand. */
function Range({ entries, from, depth }: { entries: Array<[string, Json]>; from: number; depth: number }) {
  const [open, setOpen] = useState(false);
  const to = Math.min(from + RANGE_SIZE, entries.length) - 1;
  return (
    <div data-testid="json-range">
      <Toggle open={open} onClick={() => setOpen(!open)} />
      <span style={{ color: COLORS.null }}>
        [{entries[from]![0]} … {entries[to]![0]}]
      </span>
      {open && (
        <div style={{ paddingLeft: 16 }}>
          {entries.slice(from, to + 1).map(([k, v]) => (
            <Node key={k} name={k} value={v} depth={depth + 1} />
          ))}
        </div>
      )}
    </div>
  );
}

function Node({ name, value, depth }: { name: string | null; value: Json; depth: number }) {
  const isCollection = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(depth < 2);
  const label = name !== null && <span style={{ color: COLORS.key }}>{name}: </span>;
  if (!isCollection) {
    return (
      <div style={{ paddingLeft: 18 }}>
        {label}
        <Scalar value={value} />
      </div>
    );
  }
  const entries = entriesOf(value);
  const summary = Array.isArray(value) ? `Array(${entries.length})` : `{${entries.length} keys}`;
  const ranged = entries.length > RANGE_SIZE;
  return (
    <div data-testid="json-node">
      <Toggle open={open} onClick={() => setOpen(!open)} />
      {label}
      <span style={{ color: COLORS.null }}>{summary}</span>
      {open && (
        <div style={{ paddingLeft: 16 }}>
          {ranged
            ? Array.from({ length: Math.ceil(entries.length / RANGE_SIZE) }, (_, i) => (
                <Range key={i} entries={entries} from={i * RANGE_SIZE} depth={depth} />
              ))
            : entries.map(([k, v]) => <Node key={k} name={k} value={v} depth={depth + 1} />)}
        </div>
      )}
    </div>
  );
}

/** An expandable tree; collections of more than 50 entries are collapsed into ranges. */
export function JsonTree({ value }: { value: unknown }) {
  return (
    <div style={{ fontFamily: 'monospace', fontSize: 13 }} data-testid="json-tree">
      <Node name={null} value={value as Json} depth={0} />
    </div>
  );
}

/** A flat, coloured JSON viewer: every value visible at once, keys highlighted. */
export function JsonViewer({ value }: { value: unknown }) {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  const parts = text.split(/("(?:\\.|[^"\\])*"(?=\s*:)|"(?:\\.|[^"\\])*"|\b-?\d+(?:\.\d+)?(?:e[+-]?\d+)?\b|\btrue\b|\bfalse\b|\bnull\b)/gi);
  return (
    <pre data-testid="json-viewer" style={{ fontSize: 13, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
      {parts.map((p, i) => {
        if (i % 2 === 0) return p;
        const isKey = p.startsWith('"') && /^\s*:/.test(parts[i + 1] ?? '');
        const color = isKey ? COLORS.key : p.startsWith('"') ? COLORS.string : /^(true|false)$/.test(p) ? COLORS.boolean : p === 'null' ? COLORS.null : COLORS.number;
        return (
          <span key={i} style={{ color }}>
            {p}
          </span>
        );
      })}
    </pre>
  );
}
