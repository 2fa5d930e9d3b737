import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Radio } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { plural } from '@/lib/format.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { liveQueryOptions } from '../api/lives-api.ts';
import { LivePlayer } from '../components/live-player.tsx';

/**
 * A live's watch page: waiting (it starts by itself), on air, or ended (with its replay once made).
 * `chat` renders the live chat (the comments feature, which the app composes in: features do not
 * import each other).
 */
export function LiveWatch({ chat }: { chat?: (live: { liveId: string; ownerId: string }) => ReactNode }) {
  const { liveId = '' } = useParams();
  const live = useQuery(liveQueryOptions(liveId));
  useDocumentTitle(live.data?.title ?? t('live.title'));
  if (live.isPending) return <Spinner label={t('live.loading')} />;
  if (live.isError) return <EmptyState kind="video" title={t('live.notFound')} text={errorMessage(live.error)} />;
  const l = live.data;
  return (
    <article className="mx-auto flex w-full max-w-5xl flex-col gap-4 p-4" aria-label={l.title}>
      {l.state === 'live' && l.hlsUrl ? (
        <LivePlayer src={l.hlsUrl} title={l.title} latencyMode={l.latencyMode} poster={l.thumbnail} />
      ) : (
        <section
          className="relative isolate flex aspect-video w-full flex-col items-center justify-center gap-3 overflow-hidden rounded-xl bg-surface-subtle p-6 text-center"
          aria-live="polite"
        >
          {/* The live's own thumbnail is its poster while it waits and after it ended; the words stay readable on a veil. */}
          {l.thumbnail && (
            <>
              <img src={l.thumbnail} alt="" className="absolute inset-0 -z-10 size-full object-cover" />
              <div className="absolute inset-0 -z-10 bg-surface/70" aria-hidden />
            </>
          )}
          {l.state === 'waiting' ? (
            <>
              <Radio className="size-10 animate-pulse text-fg-muted" aria-hidden />
              <p className="text-lg font-semibold">{t('live.waiting')}</p>
              <p className="text-sm text-fg-muted">{t('live.waitingText')}</p>
            </>
          ) : (
            <>
              <p className="text-lg font-semibold">{t('live.ended')}</p>
              {l.replayVideoId && (
                <Link className="text-link underline" to={paths.video.getHref(l.replayVideoId)}>
                  {t('live.replay')}
                </Link>
              )}
            </>
          )}
        </section>
      )}
      <header className="flex flex-wrap items-center gap-3">
        {l.state === 'live' && (
          <span className="rounded bg-danger-solid px-2 py-0.5 text-xs font-bold tracking-wide text-white" aria-label={t('live.onAirLabel')}>
            {t('live.badge')}
          </span>
        )}
        <h1 className="text-xl font-semibold">{l.title}</h1>
        {l.viewers !== null && <span className="text-sm text-fg-muted">{plural(l.viewers, 'live.viewers')}</span>}
      </header>
      {l.description && <p className="whitespace-pre-wrap text-sm text-fg-muted">{l.description}</p>}
      {chat?.({ liveId: l._id, ownerId: l.ownerId })}
    </article>
  );
}
