import { describe, expect, it } from 'vitest';
import { longestLabel, placeLabels } from './axis-labels.tsx';

/** n points spread evenly from `from` to `to` px. */
const spread = (n: number, from: number, to: number) => Array.from({ length: n }, (_, i) => from + (i * (to - from)) / Math.max(1, n - 1));

/** The label boxes as [left, right] pairs. */
const boxes = (placed: { left: number }[], w: number) => placed.map((p) => [p.left, p.left + w]);

describe('placeLabels (issue 34: x labels that neither overlap nor get cut)', () => {
  it('names as many points as the width has room for, the newest always, none overlapping or outside', () => {
    // 28 days on a phone's chart: ISO dates are about 70 px wide.
    const placed = placeLabels(spread(28, 52, 280), 70, 296);
    expect(placed.at(-1)!.index).toBe(27);
    expect(placed.length).toBeGreaterThanOrEqual(2);
    expect(placed.length).toBeLessThanOrEqual(3);
    const spans = boxes(placed, 70);
    for (const [left, right] of spans) {
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(296);
    }
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]! - spans[i - 1]![1]!).toBeGreaterThanOrEqual(12);
  });

  it('depends on the width, not on the number of points', () => {
    const narrow = placeLabels(spread(28, 52, 280), 70, 296).length;
    const wide = placeLabels(spread(28, 52, 1200), 70, 1216).length;
    expect(wide).toBeGreaterThan(narrow * 3);
    // A year of days on a phone: still a handful of labels, not 365.
    expect(placeLabels(spread(365, 52, 280), 70, 296).length).toBeLessThanOrEqual(3);
    // Short labels (positions of a clip): every point where there is room.
    expect(placeLabels(spread(12, 52, 1200), 30, 1216).map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('moves a label at either edge inside the chart (the last date was cut at 800 px)', () => {
    const placed = placeLabels([4, 200, 396], 60, 400);
    expect(placed).toEqual([
      { index: 0, left: 0 },
      { index: 1, left: 170 },
      { index: 2, left: 340 },
    ]);
  });

  it('leaves out a label that would touch its neighbour once moved inside', () => {
    // Every point has room, but the last box is pulled 20 px left onto the one before it, and the
    // first 20 px right onto the next: those two neighbours are left out.
    expect(placeLabels([0, 50, 100, 150, 200], 40, 200, 10)).toEqual([
      { index: 1, left: 30 },
      { index: 2, left: 80 },
      { index: 4, left: 160 },
    ]);
  });

  it('one point, or nothing measured yet', () => {
    expect(placeLabels([100], 60, 300)).toEqual([{ index: 0, left: 70 }]);
    expect(placeLabels([], 60, 300)).toEqual([]);
    expect(placeLabels([10, 20], 60, 0)).toEqual([]);
    expect(placeLabels([10, 20], 0, 300)).toEqual([]);
  });

  it('makes room for the longest label', () => {
    expect(longestLabel(['1 Nov', '28 Nov', '3 Dec'])).toBe('28 Nov');
    expect(longestLabel([])).toBe('');
  });
});
