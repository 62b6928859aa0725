/** WCAG contrast for the colours an admin configures (levels' tag colours). */

type Rgb = [number, number, number];

/** '#B8860B' or '#b80' as 0–255 channels; anything else (a colour name) is null. */
export function parseHex(color: string): Rgb | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(a: string, b: string): number {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) return NaN;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Text for a tag filled with `background`: white while white reads at 4.5:1 (antd's own choice for a
 * coloured tag), else the background's own hue darkened just far enough to read at 4.5:1, so 'Gold'
 * stays gold. Null for a colour that is not hex.
 */
export function readableTextOn(background: string): string | null {
  const bg = parseHex(background);
  if (!bg) return null;
  if (contrastRatio('#FFFFFF', toHex(bg)) >= 4.5) return '#FFFFFF';
  for (let step = 1; step <= 20; step++) {
    const keep = 1 - step / 20;
    const text = toHex(bg.map((c) => c * keep) as Rgb);
    if (contrastRatio(text, toHex(bg)) >= 4.5) return text;
  }
  return '#000000';
}
