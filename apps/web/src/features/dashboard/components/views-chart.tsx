import { formatCount, formatDate } from '@/lib/format.ts';
import type { VideoSummary } from '@/components/media/types.ts';

/** Views summed per upload day, oldest first. */
export function viewsByUploadDay(videos: Pick<VideoSummary, 'createdAt' | 'views'>[]): { day: string; views: number }[] {
  const byDay = new Map<string, number>();
  for (const v of videos) {
    const day = formatDate(v.createdAt);
    byDay.set(day, (byDay.get(day) ?? 0) + v.views);
  }
  return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, views]) => ({ day, views }));
}

const W = 600;
const H = 180;
const PAD = { top: 12, bottom: 28, left: 44, right: 8 };

/**
 * The channel's views over time as a small SVG bar chart. The API keeps no per-day view
 * history, so each bar is the views of the videos uploaded that day.
 */
export function ViewsChart({ videos }: { videos: Pick<VideoSummary, 'createdAt' | 'views'>[] }) {
  const days = viewsByUploadDay(videos);
  if (days.length === 0) return null;
  const max = Math.max(1, ...days.map((d) => d.views));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / days.length;
  const barW = Math.max(2, Math.min(40, slot * 0.7));
  const labelEvery = Math.ceil(days.length / 6);
  const summary = days.map((d) => `${d.day}: ${d.views}`).join(', ');
  return (
    <figure className="rounded-xl border border-zinc-200 p-4">
      <figcaption className="mb-1 font-semibold">Views by upload date</figcaption>
      <p className="mb-2 text-xs text-zinc-600">Total views of the videos uploaded on each day.</p>
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={`Views by upload date: ${summary}`}>
        <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} stroke="#d4d4d8" />
        <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end" fontSize="11" fill="#52525b">
          {formatCount(max)}
        </text>
        <text x={PAD.left - 6} y={H - PAD.bottom} textAnchor="end" fontSize="11" fill="#52525b">
          0
        </text>
        {days.map((d, i) => {
          const h = (d.views / max) * innerH;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={d.day}>
              <rect x={x} y={H - PAD.bottom - h} width={barW} height={Math.max(h, 1)} rx={2} fill="#2563eb">
                <title>{`${d.day}: ${formatCount(d.views)} views`}</title>
              </rect>
              {i % labelEvery === 0 && (
                <text x={x + barW / 2} y={H - PAD.bottom + 16} textAnchor="middle" fontSize="10" fill="#52525b">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
