import { CheckCircle2, FileVideo, TriangleAlert } from 'lucide-react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { formatSize } from '@/lib/format.ts';
import type { UploadJob } from './use-upload-job.ts';

export const WAIT_MESSAGE = 'Please wait for the video to finish uploading.';

/** Spec §2: percent, name and size; Finish is refused until 100%; Hide only closes the dialog. */
export function UploadProgressDialog({ job, onHide, onFinish, onRetry }: { job: UploadJob; onHide: () => void; onFinish: () => void; onRetry: () => void }) {
  const finish = () => {
    if (job.percent < 100) toast.error(WAIT_MESSAGE, { id: WAIT_MESSAGE });
    else onFinish();
  };
  const title = job.state === 'done' ? 'Uploaded Video' : job.state === 'failed' ? 'Upload failed' : 'Uploading Video...';
  return (
    <Dialog open onClose={onHide} title={title}>
      <div className="flex items-start gap-3 rounded-xl border border-zinc-200 p-3">
        {job.state === 'failed' ? (
          <TriangleAlert className="size-8 shrink-0 text-red-600" aria-hidden />
        ) : job.state === 'done' ? (
          <CheckCircle2 className="size-8 shrink-0 text-green-600" aria-hidden />
        ) : (
          <FileVideo className="size-8 shrink-0 text-blue-600" aria-hidden />
        )}
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium">{job.request.file.name}</p>
          <p className="text-xs text-zinc-600">{formatSize(job.request.file.size)}</p>
          <div className="mt-2 flex items-center gap-2">
            <div role="progressbar" aria-label="Upload progress" aria-valuenow={job.percent} aria-valuemin={0} aria-valuemax={100} className="h-2 flex-1 overflow-hidden rounded-full bg-zinc-200">
              <div className="h-full bg-blue-600 transition-all" style={{ width: `${job.percent}%` }} />
            </div>
            <span className="w-10 text-right text-sm tabular-nums">{job.percent}%</span>
          </div>
          {job.state === 'failed' && (
            <p role="alert" className="mt-2 text-xs text-red-700">
              {job.error}
            </p>
          )}
        </div>
      </div>
      {job.state === 'done' && <p className="mt-3 text-sm text-zinc-600">The video is being processed; it stays unpublished until you publish it.</p>}
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onHide}>
          Hide
        </Button>
        {job.state === 'failed' ? (
          <Button onClick={onRetry}>Retry</Button>
        ) : (
          <Button onClick={finish} dimmed={job.percent < 100}>
            Finish
          </Button>
        )}
      </div>
    </Dialog>
  );
}
