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

export interface UploadRequest {
  file: File;
  thumbnail: File;
  title: string;
  description: string;
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
    onSubmit({ file, thumbnail, title: title.trim(), description: description.trim() });
  };

  return (
    <Dialog open onClose={onClose} title="Upload Video">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="video-drop-zone"
          className={clsx('flex flex-col items-center gap-2 rounded-xl border-2 border-dashed p-5 text-center', dragging ? 'border-blue-600 bg-blue-50' : 'border-zinc-300')}
        >
          {file ? <FileVideo className="size-8 text-blue-600" aria-hidden /> : <Upload className="size-8 text-zinc-500" aria-hidden />}
          <p className="text-sm font-medium">{file ? `${file.name} (${formatSize(file.size)})` : 'Drag and drop a video file to upload'}</p>
          <p className="text-xs text-zinc-600">
            {VIDEO_UPLOAD.text}, up to {limits.videoMb}MB
          </p>
          <input
            ref={input}
            type="file"
            accept={VIDEO_ACCEPT}
            aria-label="Video file"
            className="sr-only"
            tabIndex={-1}
            onChange={(e) => {
              pick(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
          <Button size="sm" variant="secondary" onClick={() => input.current?.click()}>
            {file ? 'Change file' : 'Select file'}
          </Button>
        </div>
        <div className="flex items-center gap-3">
          <span className="block aspect-video w-24 shrink-0 overflow-hidden rounded-lg bg-zinc-200 sm:w-28">
            {preview && <img src={preview} alt="Thumbnail preview" className="size-full object-cover" />}
          </span>
          <div>
            <ImagePickButton label={thumbnail ? 'Change thumbnail' : 'Choose thumbnail'} limitMb={limits.thumbnailMb} onPick={setThumbnail} />
            <p className="px-3 text-xs text-zinc-600">Thumbnail (png or jpeg, up to {limits.thumbnailMb}MB)</p>
          </div>
        </div>
        <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} />
        <label className="flex flex-col gap-1 text-sm font-medium text-zinc-700">
          Description
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={4} className="rounded-lg border border-zinc-300 p-2 text-sm font-normal" />
        </label>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" dimmed={!file || !thumbnail || !title.trim() || !description.trim()}>
            Upload
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
