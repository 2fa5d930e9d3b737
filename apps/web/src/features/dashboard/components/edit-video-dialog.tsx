import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { ImagePickButton } from '@/components/media/image-pick-button.tsx';
import { useUploadLimits } from '@/components/media/upload-limits.ts';
import { Button } from '@/components/ui/button.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { useObjectUrl } from '@/components/ui/use-object-url.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { editForm, updateVideo, type DashboardVideo } from '../api/dashboard-api.ts';

/** Edit title, description and thumbnail; only what changed is sent, nothing when nothing did (spec §5). */
export function EditVideoDialog({ video, onClose, onSaved }: { video: DashboardVideo; onClose: () => void; onSaved: () => void }) {
  const { thumbnailMb } = useUploadLimits();
  const [title, setTitle] = useState(video.title);
  const [description, setDescription] = useState(video.description);
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const preview = useObjectUrl(thumbnail);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const form = editForm(video, { title, description, thumbnail });
    if (!form) return onClose();
    setBusy(true);
    try {
      await updateVideo(video._id, form);
      // Spec §8: the edit's success toast reads like the upload's.
      toast.success('Video uploaded successfully');
      onSaved();
      onClose();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} title="Edit video">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <div className="flex items-center gap-3">
          <img src={preview ?? video.thumbnail?.url ?? undefined} alt="Thumbnail" className="aspect-video w-32 rounded-lg bg-zinc-200 object-cover" />
          <ImagePickButton label="Change thumbnail" limitMb={thumbnailMb} onPick={setThumbnail} />
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
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
