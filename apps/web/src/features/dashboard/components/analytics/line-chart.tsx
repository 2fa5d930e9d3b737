import { LineChart } from 'chartist';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatNumber } from '@/lib/format.ts';
import { useElementWidth } from '@/lib/use-element-width.ts';
import { AxisLabels } from '../axis-labels.tsx';
import './line-chart.css';

export interface LinePoint {
  /** The x label (a day, a position), in full: the table's row header. */
  label: string;
  /** The x axis's shorter label when there is one (a day's 'Mar 5' for 'Mar 5, 2026': formatAxisDays). */
  tick?: string;
  value: number;
}

/** Where Chartist drew the plot inside its SVG (px): the first and the last point's x. */
interface Plot {
  x1: number;
  x2: number;
}

/**
 * A line over an area (Chartist, SVG; ADR 014), with a text alternative: the SVG is hidden from
 * assistive tech and a visually hidden table holds every point. The x labels are a row of text
 * under the SVG (AxisLabels): as many as the chart's width has room for, none cut at its edges.
 * Only the analytics routes import this module, so the library stays out of the other chunks.
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
  const [measured, width] = useElementWidth<HTMLDivElement>();
  const setBox = useCallback(
    (el: HTMLDivElement | null) => {
      box.current = el;
      measured(el);
    },
    [measured],
  );
  const [plot, setPlot] = useState<Plot | null>(null);

  useEffect(() => {
    const data = { labels: points.map((p) => p.label), series: [points.map((p) => p.value)] };
    const options = {
      height: '220px',
      showArea: true,
      showPoint: points.length <= 31,
      fullWidth: true,
      lineSmooth: false,
      // Zero at the bottom unless a value dips below it (net subscribers).
      low: Math.min(0, ...points.map((p) => p.value)),
      high,
      chartPadding: { top: 12, right: 16, bottom: 4, left: 4 },
      axisX: { showGrid: false, showLabel: false, offset: 0 },
      axisY: { onlyInteger: high === undefined, offset: 48, labelInterpolationFnc: (value: unknown) => format(Number(value)) },
    };
    if (chart.current) chart.current.update(data, options);
    else if (box.current) {
      chart.current = new LineChart(box.current, data, options);
      // Drawn again on every resize: the labels follow the plot's new edges.
      chart.current.on('created', ({ chartRect }: { chartRect: Plot }) =>
        setPlot((p) => (p?.x1 === chartRect.x1 && p.x2 === chartRect.x2 ? p : { x1: chartRect.x1, x2: chartRect.x2 })),
      );
    }
  }, [points, high, format]);
  const step = points.length > 1 && plot ? (plot.x2 - plot.x1) / (points.length - 1) : 0;
  const centres = plot ? points.map((_, i) => plot.x1 + i * step) : [];

  useEffect(
    () => () => {
      chart.current?.detach();
      chart.current = null;
    },
    [],
  );

  return (
    <div>
      <div
        ref={setBox}
        aria-hidden
        className="analytics-chart w-full"
        data-testid="line-chart"
      />
      <AxisLabels labels={points.map((p) => p.tick ?? p.label)} centres={centres} width={width} />
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
