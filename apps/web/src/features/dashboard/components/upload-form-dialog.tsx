import clsx from 'clsx';
import { FileVideo, Upload } from 'lucide-react';
import { useRef, useState, type DragEvent, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { ImagePickButton } from '@/components/media/image-pick-button.tsx';
import { VIDEO_UPLOAD } from '@glimpse/contract';
import { fileProblem, useUploadLimits, VIDEO_ACCEPT } from '@/components/media/upload-limits.ts';
import { Button } from '@/components/ui/button.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { useObjectUrl } from '@/components/ui/use-object-url.ts';
import { formatSize } from '@/lib/format.ts';
import { PrivacyChoice, privacyFields, type PrivacyValue } from './privacy-choice.tsx';
import { t } from '@/lib/i18n/i18n.ts';

export interface UploadRequest {
  file: File;
  thumbnail: File;
  title: string;
  description: string;
  /** The privacy fields for the last chunk (privacyFields). */
  privacy: Record<string, string>;
}

/**
 * The upload form (spec §2, §5): a video (mp4, or another everyday format) picked or dropped, a thumbnail, title and
 * description. Submitting with any of them missing or blank does nothing.
 */
export function UploadFormDialog({ onClose, onSubmit }: { onClose: () => void; onSubmit: (req: UploadRequest) => void }) {
  const limits = useUploadLimits();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [dragging, setDragging] = useState(false);
  // Private by default, as before: the owner publishes when ready (the dashboard switch).
  const [privacy, setPrivacy] = useState<PrivacyValue>({ mode: 'private', publishAt: '' });
  const preview = useObjectUrl(thumbnail);

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    const problem = fileProblem(picked, 'video', limits.videoMb);
    if (problem) toast.error(problem);
    else setFile(picked);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    pick(e.dataTransfer.files[0]);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file || !thumbnail || !title.trim() || !description.trim()) return;
    const fields = privacyFields(privacy);
    if ('error' in fields) return void toast.error(fields.error);
    onSubmit({ file, thumbnail, title: title.trim(), description: description.trim(), privacy: fields });
  };

  return (
    <Dialog open onClose={onClose} title={t('dashboard.uploadVideo')}>
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
          <p className="text-sm font-medium">{file ? `${file.name} (${formatSize(file.size)})` : t('upload.drag')}</p>
          <p className="text-xs text-fg-muted">
            {VIDEO_UPLOAD.text}, up to {limits.videoMb}MB
          </p>
          <input
            ref={input}
            type="file"
            accept={VIDEO_ACCEPT}
            aria-label={t('upload.videoFile')}
            className="sr-only"
            tabIndex={-1}
            onChange={(e) => {
              pick(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
          <Button size="sm" variant="secondary" onClick={() => input.current?.click()}>
            {file ? t('upload.changeFile') : t('upload.selectFile')}
          </Button>
        </div>
        <div className="flex items-center gap-3">
          <span className="block aspect-video w-24 shrink-0 overflow-hidden rounded-lg bg-surface-strong sm:w-28">
            {preview && <img src={preview} alt={t('upload.thumbPreview')} className="size-full object-cover" />}
          </span>
          <div>
            <ImagePickButton label={thumbnail ? t('upload.changeThumb') : t('upload.chooseThumb')} limitMb={limits.thumbnailMb} onPick={setThumbnail} />
            <p className="px-3 text-xs text-fg-muted">{t('upload.thumbHint', { mb: limits.thumbnailMb })}</p>
          </div>
        </div>
        <TextField label={t('upload.title')} value={title} onChange={(e) => setTitle(e.target.value)} />
        <label className="flex flex-col gap-1 text-sm font-medium text-fg-muted">
          {t('upload.description')}
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={4} className="rounded-lg border border-line-strong p-2 text-sm font-normal" />
        </label>
        <PrivacyChoice value={privacy} onChange={setPrivacy} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={!file || !thumbnail || !title.trim() || !description.trim()}>
            {t('upload.upload')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
