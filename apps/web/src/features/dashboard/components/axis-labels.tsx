import { useLayoutEffect, useRef, useState } from 'react';

/** An x-axis label that is drawn: the point it names and its box's left edge in px. */
export interface PlacedLabel {
  index: number;
  left: number;
}

/**
 * Which points of a chart's x axis get a label and where, so that the labels never overlap and
 * none is cut at the chart's edges: `centres` are the points' x positions in a box `width` px
 * wide, every label box is `labelWidth` px (the widest label's). How many fit depends on the
 * width, not on the number of points: every k-th point, counted back from the last one (the
 * newest day is always named). A box is centred on its point and moved inside the chart at
 * either edge; one that would then touch its neighbour is left out.
 */
export function placeLabels(centres: readonly number[], labelWidth: number, width: number, gap = 12): PlacedLabel[] {
  const n = centres.length;
  if (n === 0 || width <= 0 || labelWidth <= 0) return [];
  const spacing = n > 1 ? (centres[n - 1]! - centres[0]!) / (n - 1) : Infinity;
  const step = Math.max(1, Math.ceil((labelWidth + gap) / spacing));
  const placed: PlacedLabel[] = [];
  let limit = Infinity;
  for (let index = n - 1; index >= 0; index -= step) {
    const left = Math.max(0, Math.min(centres[index]! - labelWidth / 2, width - labelWidth));
    if (left + labelWidth + gap > limit) continue;
    placed.push({ index, left });
    limit = left;
  }
  return placed.reverse();
}

/** The label a chart must make room for: the longest text (by characters; they share one font). */
export const longestLabel = (labels: readonly string[]): string => labels.reduce((a, b) => (b.length > a.length ? b : a), '');

/**
 * A chart's x labels as a row of text under it: as many as fit (placeLabels), each centred on its
 * point. `centres` are the points' x positions in the row, which is `width` px wide. Decorative:
 * the charts have a text alternative.
 */
export function AxisLabels({ labels, centres, width }: { labels: readonly string[]; centres: readonly number[]; width: number }) {
  const probe = useRef<HTMLSpanElement>(null);
  const longest = longestLabel(labels);
  const [labelWidth, setLabelWidth] = useState(0);
  useLayoutEffect(() => setLabelWidth(Math.ceil(probe.current?.getBoundingClientRect().width ?? 0)), [longest]);
  return (
    <div aria-hidden data-testid="axis-labels" className="relative h-4 text-xs leading-4 text-fg-muted tabular-nums" style={{ width: width || undefined }}>
      <span ref={probe} className="invisible absolute whitespace-nowrap">
        {longest}
      </span>
      {placeLabels(centres, labelWidth, width).map(({ index, left }) => (
        <span key={index} className="absolute top-0 whitespace-nowrap text-center" style={{ left, width: labelWidth }}>
          {labels[index]}
        </span>
      ))}
    </div>
  );
}
