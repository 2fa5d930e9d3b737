import clsx from 'clsx';
import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { IconButton } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatCount, formatDate } from '@/lib/format.ts';
import { publishVideo, useSetVideo, type DashboardVideo } from '../api/dashboard-api.ts';

function PublishSwitch({ video }: { video: DashboardVideo }) {
  const setVideo = useSetVideo();
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      const next = !video.isPublished;
      const { data, message } = await publishVideo(video._id, next);
      setVideo(video._id, { isPublished: data.video.isPublished });
      toast.success(message || (next ? 'Video published successfully' : 'Video unpublished successfully'));
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
        aria-label={`Publish ${video.title}`}
        disabled={busy}
        onClick={toggle}
        className={clsx('relative h-6 w-11 shrink-0 rounded-full transition-colors disabled:opacity-50', video.isPublished ? 'bg-blue-600' : 'bg-zinc-300')}
      >
        <span className={clsx('absolute top-0.5 size-5 rounded-full bg-white shadow transition-all', video.isPublished ? 'left-[22px]' : 'left-0.5')} />
      </button>
      <span className={clsx('rounded-full px-2 py-0.5 text-xs font-medium', video.isPublished ? 'bg-green-100 text-green-800' : 'bg-zinc-100 text-zinc-700')}>
        {video.isPublished ? 'Published' : 'Unpublished'}
      </span>
    </div>
  );
}

function ProcessingState({ video }: { video: DashboardVideo }) {
  if (video.status === 'failed')
    return (
      <span className="text-xs font-medium text-red-700" title={video.failureReason ?? undefined}>
        Processing failed
      </span>
    );
  if (video.status === 'processing') {
    const pct = Math.round((video.progress ?? 0) * 100);
    return (
      <div className="w-28">
        <div role="progressbar" aria-label={`Processing ${video.title}`} aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} className="h-1.5 overflow-hidden rounded-full bg-zinc-200">
          <div className="h-full bg-amber-500 transition-all" style={{ width: `${pct}%` }} />
        </div>
        <span className="text-xs text-zinc-600">Processing {pct}%</span>
      </div>
    );
  }
  return <span className="text-xs text-zinc-600">Ready</span>;
}

/** The channel's videos (spec §2 dashboard): publish toggle, processing state, date, counts, edit and delete. */
export function VideosTable({ videos, onEdit, onDelete }: { videos: DashboardVideo[]; onEdit: (v: DashboardVideo) => void; onDelete: (v: DashboardVideo) => void }) {
  const th = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-zinc-600';
  return (
    // relative: the sr-only (absolute) caption and header would otherwise overflow the page, not this scroller.
    <div className="relative overflow-x-auto rounded-xl border border-zinc-200">
      <table className="w-full min-w-[720px] text-sm">
        <caption className="sr-only">Your videos</caption>
        <thead className="bg-zinc-50">
          <tr>
            <th className={th}>Status</th>
            <th className={th}>Video</th>
            <th className={th}>Processing</th>
            <th className={`${th} whitespace-nowrap`}>Date uploaded</th>
            <th className={th}>Views</th>
            <th className={th}>Likes</th>
            <th className={th}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200">
          {videos.map((v) => (
            <tr key={v._id}>
              <td className="px-3 py-2">
                <PublishSwitch video={v} />
              </td>
              <td className="px-3 py-2">
                <Link to={paths.video.getHref(v._id)} className="flex items-center gap-3">
                  <span className="block aspect-video w-20 shrink-0 overflow-hidden rounded bg-zinc-200">
                    {v.thumbnail && <img src={v.thumbnail.url} alt="" className="size-full object-cover" />}
                  </span>
                  <span className="line-clamp-2 min-w-40 max-w-64 font-medium">{v.title}</span>
                </Link>
              </td>
              <td className="px-3 py-2">
                <ProcessingState video={v} />
              </td>
              <td className="whitespace-nowrap px-3 py-2 tabular-nums">{formatDate(v.createdAt)}</td>
              <td className="px-3 py-2 tabular-nums">{formatCount(v.views)}</td>
              <td className="px-3 py-2 tabular-nums">{formatCount(v.likes ?? 0)}</td>
              <td className="px-3 py-2">
                <div className="flex justify-end gap-1">
                  <IconButton label={`Edit ${v.title}`} onClick={() => onEdit(v)} className="size-8">
                    <Pencil className="size-4" aria-hidden />
                  </IconButton>
                  <IconButton label={`Delete ${v.title}`} onClick={() => onDelete(v)} className="size-8 text-red-700">
                    <Trash2 className="size-4" aria-hidden />
                  </IconButton>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
