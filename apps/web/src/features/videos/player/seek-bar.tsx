import { chapterAt, type Chapter } from '@glimpse/contract/chapters';
import { useState, type PointerEvent as ReactPointerEvent } from 'react';
import { formatDuration } from '@/lib/format.ts';
import { cueAt, type StoryboardCue } from '../storyboard.ts';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * The seek slider: chapter segments (a gap at each chapter start), and on hover the storyboard
 * frame, the chapter title and the time under the pointer; on keyboard focus the current ones.
 */
export function SeekBar({
  time,
  duration,
  cues,
  chapters,
  onSeek,
}: {
  time: number;
  duration: number;
  cues: readonly StoryboardCue[];
  chapters: readonly Chapter[];
  onSeek: (t: number) => void;
}) {
  const [hover, setHover] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const length = duration || 0;
  const shown = hover ?? (focused ? time : null);
  const cue = hover !== null ? cueAt(cues, hover) : undefined;
  const chapter = shown !== null ? chapterAt(chapters, shown) : undefined;
  const current = chapterAt(chapters, time);
  const percent = (t: number) => `${length ? Math.min(100, (t / length) * 100) : 0}%`;

  const hoverAt = (e: ReactPointerEvent<HTMLInputElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    if (rect.width <= 0) return;
    const ratio = Math.min(1, Math.max(0, (e.clientX - rect.left) / rect.width));
    setHover(ratio * length);
  };

  return (
    <div className="relative">
      {shown !== null && (
        <div className="pointer-events-none absolute bottom-6 flex -translate-x-1/2 flex-col items-center" style={{ left: percent(shown) }}>
          {cue && (
            <div
              className="rounded border-2 border-on-media bg-media"
              style={{ width: cue.w, height: cue.h, backgroundImage: `url("${cue.url}")`, backgroundPosition: `-${cue.x}px -${cue.y}px` }}
            />
          )}
          {chapter && <span className="mt-1 max-w-48 truncate rounded bg-media/80 px-1 text-xs font-medium">{chapter.title}</span>}
          <span className="mt-1 rounded bg-media/80 px-1 text-xs">{formatDuration(shown)}</span>
        </div>
      )}
      {/* A 24 px tall target (WCAG 2.5.8) that takes the 4 px of the track in the layout. */}
      <input
        type="range"
        aria-label={t('player.seek')}
        data-seek-bar
        aria-valuetext={`${t('player.seekValue', { time: formatDuration(time), duration: formatDuration(length) })}${current ? `, ${current.title}` : ''}`}
        min={0}
        max={length}
        step={0.1}
        value={Math.min(time, length)}
        onChange={(e) => onSeek(Number(e.target.value))}
        onPointerMove={hoverAt}
        onPointerLeave={() => setHover(null)}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        className="-my-2.5 block h-6 w-full cursor-pointer accent-danger-solid focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-on-media"
      />
      {/* The gaps between chapter segments, drawn over the track. */}
      <div aria-hidden className="pointer-events-none absolute inset-0">
        {chapters.slice(1).map((c) => (
          <span key={c.start} data-chapter-marker className="absolute inset-y-0 w-[3px] -translate-x-1/2 bg-media/80" style={{ left: percent(c.start) }} />
        ))}
      </div>
    </div>
  );
}
