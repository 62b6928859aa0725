import { Column } from '@ant-design/plots';
import type { DayCount } from './BlastChart';

/** Loaded lazily: the chart library is downloaded only on the dashboards. */
export default function DailyChart({ days, dark, labels }: { days: DayCount[]; dark: boolean; labels: { success: string; fail: string } }) {
  const data = days.flatMap((d) => {
    const label = `${d.date.slice(8, 10)}/${d.date.slice(5, 7)}`;
    return [
      { date: label, type: labels.success, value: d.success },
      { date: label, type: labels.fail, value: d.fail },
    ];
  });
  // Counts are whole: below 5 the axis runs 0–5 in steps of 1 instead of 0, 0.2, 0.4….
  const most = Math.max(0, ...days.flatMap((d) => [d.success, d.fail]));
  const y = most < 5 ? { domainMin: 0, domainMax: 5, tickCount: 5 } : { domainMin: 0 };
  return (
    <Column
      data={data}
      xField="date"
      yField="value"
      colorField="type"
      group
      height={280}
      autoFit
      theme={dark ? 'classicDark' : 'classic'}
      scale={{ color: { domain: [labels.success, labels.fail], range: ['#52c41a', '#ff4d4f'] }, y }}
      axis={{ x: { title: false }, y: { title: false, labelFormatter: (v: number) => v.toLocaleString('id-ID') } }}
      legend={{ color: { position: 'top' } }}
    />
  );
}
