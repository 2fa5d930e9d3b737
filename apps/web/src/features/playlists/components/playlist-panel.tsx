import clsx from 'clsx';
import { ChevronDown, ChevronUp } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Thumbnail } from '@/components/media/thumbnail.tsx';
import { paths } from '@/config/paths.ts';
import { formatDuration } from '@/lib/format.ts';
import type { Playlist } from '@/types/api.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** The videos after `videoId` in a playlist (for auto-advance), or null at the end. */
export function nextInPlaylist(playlist: Playlist, videoId: string) {
  const i = playlist.videos.findIndex((v) => v._id === videoId);
  return i >= 0 ? (playlist.videos[i + 1] ?? null) : null;
}

/** The playlist beside the player when listId is given; collapses to 'Next' or t('playlist.end'). */
export function PlaylistPanel({ playlist, videoId }: { playlist: Playlist; videoId: string }) {
  const [open, setOpen] = useState(true);
  const index = playlist.videos.findIndex((v) => v._id === videoId);
  const next = nextInPlaylist(playlist, videoId);
  return (
    <section aria-label={t('playlist.panel', { name: playlist.name })} className="overflow-hidden rounded-xl border border-line">
      <div className="flex items-start gap-2 bg-surface-muted p-3">
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold">{playlist.name}</h2>
          <p className="text-xs text-fg-muted">
            {playlist.owner.fullName} · {index + 1}/{playlist.videos.length}
          </p>
          {!open && (
            <p className="mt-1 truncate text-sm">
              {next ? (
                <>
                  <span className="font-semibold">{t('playlist.next')}</span> {next.title}
                </>
              ) : (
                t('playlist.end')
              )}
            </p>
          )}
        </div>
        <button
          type="button"
          aria-expanded={open}
          aria-label={open ? t('playlist.collapse') : t('playlist.expand')}
          onClick={() => setOpen((v) => !v)}
          className="flex size-9 items-center justify-center rounded-full hover:bg-surface-strong"
        >
          {open ? <ChevronUp className="size-5" aria-hidden /> : <ChevronDown className="size-5" aria-hidden />}
        </button>
      </div>
      {open && (
        <ol className="max-h-96 overflow-y-auto py-1">
          {playlist.videos.map((v, i) => (
            <li key={v._id}>
              <Link
                to={paths.video.getHref(v._id, playlist._id)}
                state={{ source: 'playlist' }}
                aria-current={v._id === videoId ? 'true' : undefined}
                className={clsx('flex items-center gap-2 px-2 py-1.5 hover:bg-surface-subtle', v._id === videoId && 'bg-accent-subtle')}
              >
                <span className="w-5 shrink-0 text-center text-xs text-fg-muted">{v._id === videoId ? '▶' : i + 1}</span>
                <div className="w-24 shrink-0">
                  <Thumbnail src={v.thumbnail?.url} badge={formatDuration(v.duration)} className="rounded-md" />
                </div>
                <span className="min-w-0">
                  <span className="line-clamp-2 text-sm font-medium">{v.title}</span>
                  <span className="block truncate text-xs text-fg-muted">{v.owner.fullName}</span>
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
