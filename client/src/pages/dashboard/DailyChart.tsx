import { theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { formatCount } from '../../lib/format';
import type { DayCount } from './BlastChart';

const HEIGHT = 280;
const PAD = { top: 36, right: 8, bottom: 28, left: 48 };
const TICKS = 5;

/** A round step so the y axis reads 0, 5, 10… or 0, 2.000, 4.000…, never 0, 0.2, 0.4 (counts are whole). */
function niceStep(most: number): number {
  const raw = Math.max(1, most / TICKS);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  return Math.max(1, Math.ceil(step));
}

type Series = 'success' | 'delivered' | 'read' | 'fail';

/**
 * Successful and failed blasts per day as grouped bars (with `outcomes`, delivered and read between them), drawn as SVG with antd's theme colours: 14 pairs of
 * bars need no chart library. Loaded lazily with the dashboard's chart card. The card around it names and
 * describes the figure for screen readers, so the drawing itself is hidden from them.
 */
export default function DailyChart({ days, labels, outcomes = false }: { days: DayCount[]; labels: Record<Series, string>; outcomes?: boolean }) {
  const { token } = theme.useToken();
  // Drawn in the card's own pixels, so text keeps its size on a phone instead of shrinking with a viewBox.
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => entry && entry.contentRect.width > 0 && setWidth(Math.round(entry.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const colors: Record<Series, string> = { success: token.colorSuccess, delivered: token.colorInfo, read: token.purple, fail: token.colorError };
  const series: Series[] = outcomes ? ['success', 'delivered', 'read', 'fail'] : ['success', 'fail'];
  const value = (d: DayCount, k: Series) => d[k] ?? 0;
  const step = niceStep(Math.max(0, ...days.flatMap((d) => series.map((k) => value(d, k)))));
  const top = step * TICKS;
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const bar = Math.min(36 / series.length, (slot * 0.72) / series.length);
  // Day labels are 'DD/MM' (about 32 px): on a narrow screen every other one is written.
  const labelEvery = slot < 36 ? 2 : 1;
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const text = { fill: token.colorTextSecondary, fontSize: 12, fontFamily: token.fontFamily };

  return (
    <div ref={box}>
      <svg width={width} height={HEIGHT} aria-hidden="true" data-testid="daily-chart" style={{ display: 'block' }}>
        <g transform={`translate(${PAD.left}, 8)`} style={text}>
          {series.map((k, i) => (
            <g key={k} transform={`translate(${i * Math.min(120, (width - PAD.left) / series.length)}, 0)`}>
              <rect width={10} height={10} y={2} rx={2} fill={colors[k]} />
              <text x={16} y={11} {...text}>{labels[k]}</text>
            </g>
          ))}
        </g>
        {Array.from({ length: TICKS + 1 }, (_, i) => {
          const v = i * step;
          return (
            <g key={v}>
              <line x1={PAD.left} x2={width - PAD.right} y1={y(v)} y2={y(v)} stroke={token.colorBorderSecondary} />
              <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" {...text}>{formatCount(v)}</text>
            </g>
          );
        })}
        {days.map((d, i) => {
          const x = PAD.left + i * slot + slot / 2;
          return (
            <g key={d.date}>
              {series.map((k, j) => {
                const v = value(d, k);
                return (
                  <rect key={k} x={x + (j - series.length / 2) * bar} y={y(v)} width={bar} height={y(0) - y(v)} fill={colors[k]} data-series={k} data-value={v}>
                    <title>{`${labels[k]}: ${formatCount(v)}`}</title>
                  </rect>
                );
              })}
              {(days.length - 1 - i) % labelEvery === 0 && (
                <text x={x} y={HEIGHT - 8} textAnchor="middle" {...text}>{`${d.date.slice(8, 10)}/${d.date.slice(5, 7)}`}</text>
              )}
            </g>
          );
        })}
      </svg>
    </div>
  );
}
