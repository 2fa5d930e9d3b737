import clsx from 'clsx';
import { FileVideo, Upload } from 'lucide-react';
import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { DESCRIPTION_MAX, TITLE_MAX } from '@glimpse/contract';
import { fileProblem, useUploadLimits, VIDEO_ACCEPT, videoTypesText } from '@/components/media/upload-limits.ts';
import { Button } from '@/components/ui/button.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { TextArea, TextField } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { formatSize } from '@/lib/format.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { uploadPercent } from '../api/chunked-upload.ts';
import type { EarlyUpload } from '../api/early-upload.ts';
import { PrivacyChoice, privacyFields, type PrivacyValue } from './privacy-choice.tsx';
import { pickedThumbnail, ThumbnailChoice, type ThumbnailPick } from './thumbnail-choice.tsx';
import { missingFields, missingHint, titleFromFileName } from './upload-checklist.ts';
import { useSendAhead } from './use-send-ahead.ts';
import { useVideoFrames } from './video-frames.ts';

export interface UploadRequest {
  file: File;
  thumbnail: File;
  title: string;
  description: string;
  /** The privacy fields for the last chunk (privacyFields). */
  privacy: Record<string, string>;
  /** The upload already under way since the file was picked: the job finishes it. */
  early?: EarlyUpload;
}

/**
 * The upload form (spec §2, §5): a video (mp4, or another everyday format) picked or dropped, a thumbnail, title and
 * description; Upload stays disabled until all are there, and the line above it says what is missing. The
 * video starts going as soon as it is picked (all but its last chunk, which carries the form), the title
 * comes from the file name, and three frames of the video are offered as thumbnails (issue 34).
 */
export function UploadFormDialog({ onClose, onSubmit }: { onClose: () => void; onSubmit: (req: UploadRequest) => void }) {
  const limits = useUploadLimits();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [own, setOwn] = useState<File | null>(null);
  const [pick, setPick] = useState<ThumbnailPick>(null);
  const [title, setTitle] = useState('');
  // The title last made from a file name: replaced with the next file's, unless the person changed it.
  const [madeTitle, setMadeTitle] = useState('');
  const [description, setDescription] = useState('');
  const [dragging, setDragging] = useState(false);
  // Private by default, as before: the owner publishes when ready (the dashboard switch).
  const [privacy, setPrivacy] = useState<PrivacyValue>({ mode: 'private', publishAt: '' });
  const frames = useVideoFrames(file, limits.thumbnailMb * 1024 * 1024);
  const ahead = useSendAhead();
  const thumbnail = pickedThumbnail(pick, frames.frames, own);
  const missing = missingFields({ file, thumbnail, title, description });

  const choose = (picked: File | undefined) => {
    if (!picked) return;
    const problem = fileProblem(picked, 'video', limits.videoMb);
    if (problem) return void toast.error(problem);
    setFile(picked);
    ahead.start(picked);
    // Another video's frames are not this one's.
    if (pick?.kind === 'frame') setPick(null);
    const suggested = titleFromFileName(picked.name);
    if (!title.trim() || title === madeTitle) setTitle(suggested);
    setMadeTitle(suggested);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer.files[0]);
  };
  const close = () => {
    ahead.abandon();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file || !thumbnail || missing.length > 0) return;
    const fields = privacyFields(privacy);
    if ('error' in fields) return void toast.error(fields.error);
    ahead.handOver();
    onSubmit({ file, thumbnail, title: title.trim(), description: description.trim(), privacy: fields, early: ahead.upload ?? undefined });
  };

  const sent = ahead.state && uploadPercent(ahead.state.loaded, ahead.state.total, false);
  return (
    <Dialog open onClose={close} title={t('dashboard.uploadVideo')}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="video-drop-zone"
          className={clsx('flex flex-col items-center gap-2 rounded-xl border-2 border-dashed p-5 text-center', dragging ? 'border-accent bg-accent-subtle' : 'border-line-strong')}
        >
          {file ? <FileVideo className="size-8 text-link" aria-hidden /> : <Upload className="size-8 text-fg-muted" aria-hidden />}
          <p className="max-w-full text-sm font-medium break-words">{file ? `${file.name} (${formatSize(file.size)})` : t('upload.drag')}</p>
          <p className="text-xs text-fg-muted">{t('upload.videoHint', { types: videoTypesText(), mb: limits.videoMb })}</p>
          <input
            ref={input}
            type="file"
            accept={VIDEO_ACCEPT}
            aria-label={t('upload.videoFile')}
            className="sr-only"
            tabIndex={-1}
            onChange={(e) => {
              choose(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
          <Button size="sm" variant="secondary" onClick={() => input.current?.click()}>
            {file ? t('upload.changeFile') : t('upload.selectFile')}
          </Button>
          {ahead.upload?.sendsAhead && ahead.state && sent !== null && (
            <div className="flex w-full flex-col gap-1">
              {ahead.state.error ? (
                <p role="alert" className="text-xs text-danger">
                  {t('upload.aheadFailed', { message: errorMessage(ahead.state.error) })}
                </p>
              ) : (
                <>
                  <div role="progressbar" aria-label={t('upload.aheadProgress')} aria-valuenow={sent} aria-valuemin={0} aria-valuemax={100} className="h-1.5 w-full overflow-hidden rounded-full bg-surface-strong">
                    <div className="h-full bg-accent transition-all" style={{ width: `${sent}%` }} />
                  </div>
                  <p className="text-xs text-fg-muted">{ahead.state.waiting ? t('upload.sentAhead', { percent: sent }) : t('upload.sendingAhead', { percent: sent })}</p>
                </>
              )}
            </div>
          )}
        </div>
        <ThumbnailChoice frames={frames.frames} status={frames.status} own={own} onOwn={setOwn} pick={pick} onPick={setPick} limitMb={limits.thumbnailMb} />
        <TextField label={t('upload.title')} value={title} maxLength={TITLE_MAX} onChange={(e) => setTitle(e.target.value)} />
        <TextArea label={t('upload.description')} value={description} maxLength={DESCRIPTION_MAX} rows={4} onChange={(e) => setDescription(e.target.value)} />
        <PrivacyChoice value={privacy} onChange={setPrivacy} />
        {/* Read out as it changes; the disabled Upload button is described by it. */}
        <p id={hintId} role="status" className={clsx('text-sm', missing.length > 0 ? 'text-fg' : 'text-fg-muted')}>
          {missingHint(missing)}
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={missing.length > 0} aria-describedby={missing.length > 0 ? hintId : undefined}>
            {t('upload.upload')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
