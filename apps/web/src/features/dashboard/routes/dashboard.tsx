import { Upload } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { useUploadAvailability } from '@/components/media/upload-limits.ts';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useStoredUser } from '@/lib/session.ts';
import { useConfirmedDelete } from '@/lib/use-confirmed-delete.ts';
import { deleteVideo, useDashboardVideos, useRefreshDashboard, useStats, type DashboardVideo } from '../api/dashboard-api.ts';
import { EditVideoDialog } from '../components/edit-video-dialog.tsx';
import { StatCards } from '../components/stat-cards.tsx';
import { UploadFormDialog } from '../components/upload-form-dialog.tsx';
import { UploadProgressDialog, WAIT_MESSAGE } from '../components/upload-progress-dialog.tsx';
import { useUploadJob } from '../components/use-upload-job.ts';
import { VideosTable } from '../components/videos-table.tsx';
import { ViewsChart } from '../components/views-chart.tsx';

/** The channel dashboard (spec §2): stats, upload, the videos table and a views chart. The guard is in user-layout. */
export default function DashboardRoute() {
  const user = useStoredUser();
  const stats = useStats();
  const videos = useDashboardVideos();
  const refresh = useRefreshDashboard();
  const upload = useUploadJob(() => void refresh());
  const uploads = useUploadAvailability();
  const [formOpen, setFormOpen] = useState(false);
  const [progressOpen, setProgressOpen] = useState(false);
  const [editing, setEditing] = useState<DashboardVideo | null>(null);

  const remover = useConfirmedDelete<DashboardVideo>(deleteVideo, 'Video deleted successfully', refresh);

  const list = videos.data ?? [];
  const job = upload.job;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Welcome back, {user?.fullName}</h1>
          <p className="text-sm text-zinc-600">
            Track and manage your channel.{' '}
            {user && (
              <Link to={paths.channel.videos.getHref(user.userName)} className="font-medium text-blue-700 hover:underline">
                View channel
              </Link>
            )}
          </p>
        </div>
        <div className="flex gap-2">
          {job && !progressOpen && (
            <Button variant="secondary" onClick={() => setProgressOpen(true)}>
              {job.state === 'uploading' ? `Uploading ${job.percent}%` : job.state === 'failed' ? 'Upload failed' : 'Upload done'}
            </Button>
          )}
          <Button
            onClick={() =>
              !uploads.available
                ? toast.error(uploads.reason ?? '', { id: 'uploads-unavailable' })
                : job?.state === 'uploading'
                  ? toast.error(WAIT_MESSAGE, { id: WAIT_MESSAGE })
                  : setFormOpen(true)
            }
          >
            <Upload className="size-4" aria-hidden /> Upload Video
          </Button>
        </div>
      </div>

      {!uploads.available && (
        <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {uploads.reason}
        </p>
      )}

      <StatCards stats={stats.data} />
      {list.length > 0 && <ViewsChart videos={list} />}

      <section aria-labelledby="your-videos">
        <h2 id="your-videos" className="mb-3 text-lg font-semibold">
          Your videos
        </h2>
        {videos.isPending ? (
          <Spinner label="Loading videos" />
        ) : videos.isError ? (
          <p role="alert" className="text-sm text-red-700">
            {errorMessage(videos.error)}
          </p>
        ) : list.length === 0 ? (
          <EmptyState kind="video" title="No videos uploaded" text="Upload your first video to see it here." />
        ) : (
          <VideosTable videos={list} onEdit={setEditing} onDelete={remover.ask} />
        )}
      </section>

      {formOpen && (
        <UploadFormDialog
          onClose={() => setFormOpen(false)}
          onSubmit={(req) => {
            setFormOpen(false);
            setProgressOpen(true);
            void upload.start(req);
          }}
        />
      )}
      {job && progressOpen && (
        <UploadProgressDialog
          job={job}
          onHide={() => setProgressOpen(false)}
          onFinish={() => {
            setProgressOpen(false);
            upload.clear();
          }}
          onRetry={() => void upload.start(job.request)}
        />
      )}
      {editing && <EditVideoDialog video={editing} onClose={() => setEditing(null)} onSaved={() => void refresh()} />}
      <ConfirmDialog
        open={remover.pending !== null}
        title="Delete video"
        text={remover.pending ? `Delete '${remover.pending.title}'? This removes the video, its comments and likes for good.` : ''}
        onConfirm={remover.confirm}
        onClose={remover.cancel}
        busy={remover.busy}
      />
    </div>
  );
}
