import { moreRenditionsComing } from '@glimpse/contract';
import clsx from 'clsx';
import { ChartLine, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { IconButton } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatCount, formatDate, formatDateTime, plural } from '@/lib/format.ts';
import { useStoredUser } from '@/lib/session.ts';
import { useMediaQuery } from '@/lib/use-media-query.ts';
import { publishVideo, useSetVideo, type DashboardVideo } from '../api/dashboard-api.ts';
import { t } from '@/lib/i18n/i18n.ts';

function PublishSwitch({ video }: { video: DashboardVideo }) {
  const setVideo = useSetVideo();
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      const next = !video.isPublished;
      const { data, message } = await publishVideo(video._id, next);
      const { isPublished, privacy, publishAt } = data.video;
      setVideo(video._id, { isPublished, privacy, publishAt });
      toast.success(message || (next ? t('dashboard.published') : t('dashboard.unpublishedToast')));
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        role="switch"
        aria-checked={video.isPublished}
        aria-label={t('dashboard.publishLabel', { title: video.title })}
        disabled={busy}
        onClick={toggle}
        className={clsx('relative h-6 w-11 shrink-0 rounded-full transition-colors disabled:opacity-50', video.isPublished ? 'bg-accent' : 'bg-surface-strong')}
      >
        <span className={clsx('absolute top-0.5 size-5 rounded-full bg-on-accent shadow transition-all', video.isPublished ? 'left-[22px]' : 'left-0.5')} />
      </button>
      <PrivacyChip video={video} />
    </div>
  );
}

/** The video's privacy: Published (public), Unlisted, Unpublished (private) or its scheduled time. */
function PrivacyChip({ video }: { video: DashboardVideo }) {
  const [label, tone] = video.publishAt
    ? [t('dashboard.scheduledFor', { date: formatDateTime(video.publishAt) }), 'bg-warning-subtle text-warning']
    : video.isPublished
      ? [t('dashboard.publishedChip'), 'bg-success-subtle text-success']
      : video.privacy === 'unlisted'
        ? [t('status.unlisted'), 'bg-accent-muted text-link']
        : [t('status.unpublished'), 'bg-surface-subtle text-fg-muted'];
  return <span className={clsx('whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium', tone)}>{label}</span>;
}

function ProcessingState({ video }: { video: DashboardVideo }) {
  if (video.status === 'failed')
    return (
      <span className="text-xs font-medium text-danger" title={video.failureReason ?? undefined}>
        {t('dashboard.processingFailed')}
      </span>
    );
  const pct = Math.round((video.progress ?? 0) * 100);
  const coming = moreRenditionsComing(video);
  return (
    <div className="w-28">
      {coming && (
        <div role="progressbar" aria-label={t('dashboard.processingLabel', { title: video.title })} aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} className="h-1.5 overflow-hidden rounded-full bg-surface-strong">
          <div className="h-full bg-warning-solid transition-all" style={{ width: `${pct}%` }} />
        </div>
      )}
      <span className="text-xs text-fg-muted">{!coming ? t('dashboard.ready') : t(video.status === 'ready' ? 'dashboard.playablePercent' : 'dashboard.processingPercent', { percent: pct })}</span>
      <Renditions video={video} />
    </div>
  );
}

/** Which qualities play yet: the lowest comes first, the others follow while the video plays (ADR 019). */
function Renditions({ video }: { video: DashboardVideo }) {
  const renditions = video.renditions ?? [];
  if (renditions.length === 0) return null;
  return (
    <ul aria-label={t('dashboard.qualitiesOf', { title: video.title })} className="flex flex-wrap gap-x-1.5 text-xs">
      {renditions.map((r) => (
        <li key={r.name} className={r.ready ? 'text-fg' : 'text-fg-subtle'}>
          {r.name}
          <span className="sr-only">{` ${t(r.ready ? 'dashboard.renditionReady' : 'dashboard.renditionComing')}`}</span>
        </li>
      ))}
    </ul>
  );
}

interface RowProps {
  onEdit: (v: DashboardVideo) => void;
  onDelete: (v: DashboardVideo) => void;
}

function VideoActions({ video: v, userName, onEdit, onDelete }: RowProps & { video: DashboardVideo; userName: string }) {
  return (
    <div className="flex justify-end gap-1">
      <Link
        to={paths.user.videoAnalytics.getHref(userName, v._id)}
        aria-label={t('dashboard.analyticsFor', { title: v.title })}
        title={t('dashboard.analyticsFor', { title: v.title })}
        className="inline-flex size-8 shrink-0 items-center justify-center rounded-full text-fg hover:bg-surface-subtle"
      >
        <ChartLine className="size-4" aria-hidden />
      </Link>
      <IconButton label={t('dashboard.editLabel', { title: v.title })} onClick={() => onEdit(v)} className="size-8">
        <Pencil className="size-4" aria-hidden />
      </IconButton>
      <IconButton label={t('dashboard.deleteLabel', { title: v.title })} onClick={() => onDelete(v)} className="size-8 text-danger">
        <Trash2 className="size-4" aria-hidden />
      </IconButton>
    </div>
  );
}

function VideoThumb({ video: v }: { video: DashboardVideo }) {
  return (
    <span className="block aspect-video w-20 shrink-0 overflow-hidden rounded bg-surface-strong">
      {v.thumbnail && <img src={v.thumbnail.url} alt="" className="size-full object-cover" />}
    </span>
  );
}

/** Below 1024 px the table would scroll sideways (status, views and actions off screen): one card per video. */
const CARDS = '(max-width: 1023.98px)';

/** The channel's videos (spec §2 dashboard): publish toggle, processing state, date, counts, edit and delete. */
export function VideosTable({ videos, onEdit, onDelete }: RowProps & { videos: DashboardVideo[] }) {
  const userName = useStoredUser()?.userName ?? '';
  const cards = useMediaQuery(CARDS);
  if (cards)
    return (
      <ul aria-label={t('dashboard.yourVideos')} className="flex flex-col divide-y divide-line rounded-xl border border-line">
        {videos.map((v) => (
          <li key={v._id} className="flex flex-col gap-2 p-3">
            <Link to={paths.video.getHref(v._id)} className="flex items-start gap-3">
              <VideoThumb video={v} />
              <span className="line-clamp-2 min-w-0 font-medium">{v.title}</span>
            </Link>
            {v.takedown && <p className="text-xs font-medium text-warning">{t('mod.removedNotice', { reason: v.takedown.reason })}</p>}
            <div className="flex flex-wrap items-center justify-between gap-2">
              <PublishSwitch video={v} />
              <ProcessingState video={v} />
            </div>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-xs text-fg-muted tabular-nums">
                {plural(v.views, 'count.views')} · {plural(v.likes ?? 0, 'count.likes')} · {formatDate(v.createdAt)}
              </p>
              <VideoActions video={v} userName={userName} onEdit={onEdit} onDelete={onDelete} />
            </div>
          </li>
        ))}
      </ul>
    );
  const th = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-fg-muted';
  return (
    // relative: the sr-only (absolute) caption and header would otherwise overflow the page, not this scroller.
    <div className="relative overflow-x-auto rounded-xl border border-line">
      <table className="w-full min-w-[720px] text-sm">
        <caption className="sr-only">{t('dashboard.yourVideos')}</caption>
        <thead className="bg-surface-muted">
          <tr>
            <th className={th}>{t('dashboard.colStatus')}</th>
            <th className={th}>{t('dashboard.colVideo')}</th>
            <th className={th}>{t('dashboard.colProcessing')}</th>
            <th className={`${th} whitespace-nowrap`}>{t('dashboard.colDate')}</th>
            <th className={th}>{t('dashboard.colViews')}</th>
            <th className={th}>{t('dashboard.colLikes')}</th>
            <th className={th}>
              <span className="sr-only">{t('dashboard.colActions')}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {videos.map((v) => (
            <tr key={v._id}>
              <td className="px-3 py-2">
                <PublishSwitch video={v} />
              </td>
              <td className="px-3 py-2">
                <Link to={paths.video.getHref(v._id)} className="flex items-center gap-3">
                  <VideoThumb video={v} />
                  <span className="line-clamp-2 min-w-40 max-w-64 font-medium">{v.title}</span>
                </Link>
                {v.takedown && <p className="mt-1 max-w-64 text-xs font-medium text-warning">{t('mod.removedNotice', { reason: v.takedown.reason })}</p>}
              </td>
              <td className="px-3 py-2">
                <ProcessingState video={v} />
              </td>
              <td className="whitespace-nowrap px-3 py-2 tabular-nums">{formatDate(v.createdAt)}</td>
              <td className="px-3 py-2 tabular-nums">{formatCount(v.views)}</td>
              <td className="px-3 py-2 tabular-nums">{formatCount(v.likes ?? 0)}</td>
              <td className="px-3 py-2">
                <VideoActions video={v} userName={userName} onEdit={onEdit} onDelete={onDelete} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
