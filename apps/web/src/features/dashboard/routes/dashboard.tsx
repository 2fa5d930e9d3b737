import { ChartLine, Upload } from 'lucide-react';
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
import { deleteVideo, useDashboardVideos, useRefreshDashboard, useStats, useStorage, type DashboardVideo } from '../api/dashboard-api.ts';
import { EditVideoDialog } from '../components/edit-video-dialog.tsx';
import { HeldComments } from '../components/held-comments.tsx';
import { StatCards } from '../components/stat-cards.tsx';
import { StorageBar } from '../components/storage-bar.tsx';
import { UploadFormDialog } from '../components/upload-form-dialog.tsx';
import { UploadProgressDialog, WAIT_TOAST } from '../components/upload-progress-dialog.tsx';
import { useUploadJob } from '../components/use-upload-job.ts';
import { VideosTable } from '../components/videos-table.tsx';
import { ViewsChart } from '../components/views-chart.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** The channel dashboard (spec §2): stats, upload, the videos table and a views chart. The guard is in user-layout. */
export default function DashboardRoute() {
  useDocumentTitle(t('dashboard.title'));
  const user = useStoredUser();
  const stats = useStats();
  const storage = useStorage();
  const videos = useDashboardVideos();
  const refresh = useRefreshDashboard();
  const upload = useUploadJob(() => void refresh());
  const uploads = useUploadAvailability();
  const [formOpen, setFormOpen] = useState(false);
  const [progressOpen, setProgressOpen] = useState(false);
  const [editing, setEditing] = useState<DashboardVideo | null>(null);

  const remover = useConfirmedDelete<DashboardVideo>(deleteVideo, t('dashboard.deleted'), refresh);

  const list = videos.data ?? [];
  const job = upload.job;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{t('dashboard.welcome', { name: user?.fullName ?? '' })}</h1>
          <p className="text-sm text-fg-muted">
            {t('dashboard.track')}{' '}
            {user && (
              <Link to={paths.channel.videos.getHref(user.userName)} className="font-medium text-link hover:underline">
                {t('dashboard.viewChannel')}
              </Link>
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {user && (
            <Link
              to={paths.user.analytics.getHref(user.userName)}
              className="inline-flex h-10 items-center justify-center gap-2 rounded-full bg-surface-subtle px-4 text-sm font-medium text-fg hover:bg-surface-strong"
            >
              <ChartLine className="size-4" aria-hidden /> {t('dashboard.analytics')}
            </Link>
          )}
          {job && !progressOpen && (
            <Button variant="secondary" onClick={() => setProgressOpen(true)}>
              {job.state === 'uploading' ? t('dashboard.uploading', { percent: job.percent }) : job.state === 'failed' ? t('dashboard.uploadFailed') : t('dashboard.uploadDone')}
            </Button>
          )}
          <Button
            onClick={() =>
              !uploads.available
                ? toast.error(uploads.reason ?? '', { id: 'uploads-unavailable' })
                : job?.state === 'uploading'
                  ? toast.error(t('upload.wait'), { id: WAIT_TOAST })
                  : setFormOpen(true)
            }
          >
            <Upload className="size-4" aria-hidden /> {t('dashboard.uploadVideo')}
          </Button>
        </div>
      </div>

      {!uploads.available && (
        <p role="alert" className="rounded-lg border border-warning-line bg-warning-subtle p-3 text-sm text-warning">
          {uploads.reason}
        </p>
      )}

      <StatCards stats={stats.data} />
      <StorageBar usage={storage.data} />
      {list.length > 0 && <ViewsChart videos={list} />}

      <section aria-labelledby="your-videos">
        <h2 id="your-videos" className="mb-3 text-lg font-semibold">
          {t('dashboard.yourVideos')}
        </h2>
        {videos.isPending ? (
          <Spinner label={t('home.loading')} />
        ) : videos.isError ? (
          <p role="alert" className="text-sm text-danger">
            {errorMessage(videos.error)}
          </p>
        ) : list.length === 0 ? (
          <EmptyState kind="video" title={t('dashboard.noVideos')} text={t('dashboard.uploadFirst')} />
        ) : (
          <VideosTable videos={list} onEdit={setEditing} onDelete={remover.ask} />
        )}
      </section>

      <HeldComments />

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
        title={t('dashboard.deleteTitle')}
        text={remover.pending ? t('dashboard.deleteText', { title: remover.pending.title }) : ''}
        onConfirm={remover.confirm}
        onClose={remover.cancel}
        busy={remover.busy}
      />
    </div>
  );
}
