import { CheckCircle2, FileVideo, TriangleAlert } from 'lucide-react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { formatSize } from '@/lib/format.ts';
import type { UploadJob } from './use-upload-job.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** One toast however often the dialog is closed early. */
export const WAIT_TOAST = 'upload-wait';

/** Spec §2: percent, name and size; Finish is refused until 100%; Hide only closes the dialog. */
export function UploadProgressDialog({ job, onHide, onFinish, onRetry }: { job: UploadJob; onHide: () => void; onFinish: () => void; onRetry: () => void }) {
  const finish = () => {
    if (job.percent < 100) toast.error(t('upload.wait'), { id: WAIT_TOAST });
    else onFinish();
  };
  const title = job.state === 'done' ? t('upload.uploaded') : job.state === 'failed' ? t('dashboard.uploadFailed') : t('upload.uploading');
  return (
    <Dialog open onClose={onHide} title={title}>
      <div className="flex items-start gap-3 rounded-xl border border-line p-3">
        {job.state === 'failed' ? (
          <TriangleAlert className="size-8 shrink-0 text-danger" aria-hidden />
        ) : job.state === 'done' ? (
          <CheckCircle2 className="size-8 shrink-0 text-success" aria-hidden />
        ) : (
          <FileVideo className="size-8 shrink-0 text-link" aria-hidden />
        )}
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium">{job.request.file.name}</p>
          <p className="text-xs text-fg-muted">{formatSize(job.request.file.size)}</p>
          <div className="mt-2 flex items-center gap-2">
            <div role="progressbar" aria-label={t('upload.progress')} aria-valuenow={job.percent} aria-valuemin={0} aria-valuemax={100} className="h-2 flex-1 overflow-hidden rounded-full bg-surface-strong">
              <div className="h-full bg-accent transition-all" style={{ width: `${job.percent}%` }} />
            </div>
            <span className="w-10 text-right text-sm tabular-nums">{job.percent}%</span>
          </div>
          {job.state === 'failed' && (
            <p role="alert" className="mt-2 text-xs text-danger">
              {job.error}
            </p>
          )}
        </div>
      </div>
      {job.state === 'done' && <p className="mt-3 text-sm text-fg-muted">{t('upload.processingNote')}</p>}
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onHide}>
          {t('upload.hide')}
        </Button>
        {job.state === 'failed' ? (
          <Button onClick={onRetry}>{t('upload.retry')}</Button>
        ) : (
          <Button onClick={finish} dimmed={job.percent < 100}>
            {t('upload.finish')}
          </Button>
        )}
      </div>
    </Dialog>
  );
}
