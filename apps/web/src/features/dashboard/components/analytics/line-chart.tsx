import { LineChart } from 'chartist';
import { useEffect, useRef } from 'react';
import { axisStep, formatNumber } from '@/lib/format.ts';
import './line-chart.css';

export interface LinePoint {
  /** The x label (a day, a position), in full: the table's row header. */
  label: string;
  /** The x axis's shorter label when there is one (a day's 'Mar 5' or '10' for 'Mar 10, 2026'; formatAxisDays with axisStep). */
  tick?: string;
  value: number;
}

/**
 * A line over an area (Chartist, SVG; ADR 014), with a text alternative: the SVG is hidden from
 * assistive tech and a visually hidden table holds every point. Only the analytics routes import
 * this module, so the library stays out of the other chunks.
 */
export function LineAreaChart({
  points,
  caption,
  columns,
  format = formatNumber,
  high,
}: {
  points: LinePoint[];
  /** Names the table that stands in for the chart. */
  caption: string;
  /** The table's column headers: [x, y]. */
  columns: [string, string];
  format?: (value: number) => string;
  /** A fixed top of the y axis (retention: 100). */
  high?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<LineChart | null>(null);

  useEffect(() => {
    // A few x labels whatever the number of points: they must not overlap on a phone.
    const every = axisStep(points.length);
    const data = { labels: points.map((p) => p.tick ?? p.label), series: [points.map((p) => p.value)] };
    const options = {
      height: '220px',
      showArea: true,
      showPoint: points.length <= 31,
      fullWidth: true,
      lineSmooth: false,
      // Zero at the bottom unless a value dips below it (net subscribers).
      low: Math.min(0, ...points.map((p) => p.value)),
      high,
      chartPadding: { top: 12, right: 16, bottom: 0, left: 4 },
      axisX: { showGrid: false, labelInterpolationFnc: (label: unknown, i: number) => (i % every === 0 ? String(label) : null) },
      axisY: { onlyInteger: high === undefined, offset: 48, labelInterpolationFnc: (value: unknown) => format(Number(value)) },
    };
    if (chart.current) chart.current.update(data, options);
    else if (box.current) chart.current = new LineChart(box.current, data, options);
  }, [points, high, format]);

  useEffect(
    () => () => {
      chart.current?.detach();
      chart.current = null;
    },
    [],
  );

  return (
    <div>
      <div ref={box} aria-hidden className="analytics-chart w-full" data-testid="line-chart" />
      <table className="sr-only">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{columns[0]}</th>
            <th scope="col">{columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p, i) => (
            // Positions may share a label (two points within one second).
            <tr key={i}>
              <th scope="row">{p.label}</th>
              <td>{format(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
