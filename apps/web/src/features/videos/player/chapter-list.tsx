import { chapterAt, type Chapter } from '@glimpse/contract/chapters';
import { useEffect, useState } from 'react';
import { formatDuration } from '@/lib/format.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** Chapters under the video: each a button that plays from its start; the current one marked. */
export function ChapterList({ chapters, video }: { chapters: readonly Chapter[]; video: HTMLVideoElement | null }) {
  const [current, setCurrent] = useState<number | undefined>(chapters[0]?.start);
  useEffect(() => {
    if (!video) return;
    // Re-renders only when the chapter changes, not at every time update.
    const onTime = () => setCurrent(chapterAt(chapters, video.currentTime)?.start);
    onTime();
    video.addEventListener('timeupdate', onTime);
    return () => video.removeEventListener('timeupdate', onTime);
  }, [video, chapters]);

  if (chapters.length === 0) return null;
  return (
    <section aria-labelledby="chapters-title" className="mt-4">
      <h2 id="chapters-title" className="mb-2 font-semibold">
        {t('player.chapters')}
      </h2>
      <ol className="flex gap-2 overflow-x-auto pb-2 lg:flex-wrap">
        {chapters.map((c) => {
          const isCurrent = c.start === current;
          return (
            <li key={c.start} className="shrink-0">
              <button
                type="button"
                aria-current={isCurrent ? 'true' : undefined}
                disabled={!video}
                onClick={() => {
                  if (!video) return;
                  video.currentTime = c.start;
                  void video.play().catch(() => undefined);
                }}
                className={
                  'flex max-w-56 flex-col items-start rounded-lg border px-3 py-2 text-left text-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-danger ' +
                  (isCurrent ? 'border-danger bg-danger-subtle' : 'border-line hover:bg-surface-subtle')
                }
              >
                <span className="text-xs font-medium text-link tabular-nums">{formatDuration(c.start)}</span>
                <span className="line-clamp-2">{c.title}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
