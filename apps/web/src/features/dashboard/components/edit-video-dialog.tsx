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
import { PrivacyChoice, privacyFields, privacyOf } from './privacy-choice.tsx';
import { CaptionsSection } from './captions-section.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/** Edit title, description, thumbnail, visibility and downloads; only what changed is sent, nothing when nothing did (spec §5). */
export function EditVideoDialog({ video, onClose, onSaved }: { video: DashboardVideo; onClose: () => void; onSaved: () => void }) {
  const { thumbnailMb } = useUploadLimits();
  const [title, setTitle] = useState(video.title);
  const [description, setDescription] = useState(video.description);
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const [commentsEnabled, setCommentsEnabled] = useState(video.commentsEnabled ?? true);
  const [downloadsEnabled, setDownloadsEnabled] = useState(video.downloadsEnabled ?? false);
  const [privacy, setPrivacy] = useState(privacyOf(video));
  const preview = useObjectUrl(thumbnail);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const fields = privacyFields(privacy);
    if ('error' in fields) return void toast.error(fields.error);
    const form = editForm(video, { title, description, thumbnail, commentsEnabled, downloadsEnabled, privacy: fields });
    if (!form) return onClose();
    setBusy(true);
    try {
      await updateVideo(video._id, form);
      // Spec §8: the edit's success toast reads like the upload's.
      toast.success(t('edit.saved'));
      onSaved();
      onClose();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} title={t('edit.title')}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {/* Wraps on a phone instead of pushing the button out of the dialog. */}
        <div className="flex flex-wrap items-center gap-3">
          <img src={preview ?? video.thumbnail?.url ?? undefined} alt={t('edit.thumbnail')} className="aspect-video w-32 rounded-lg bg-surface-strong object-cover" />
          <ImagePickButton label={t('upload.changeThumb')} limitMb={thumbnailMb} onPick={setThumbnail} />
        </div>
        <TextField label={t('upload.title')} value={title} onChange={(e) => setTitle(e.target.value)} />
        <label className="flex flex-col gap-1 text-sm font-medium text-fg-muted">
          {t('upload.description')}
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={4} className="rounded-lg border border-line-strong p-2 text-sm font-normal" />
        </label>
        <label className="flex items-center gap-2 text-sm font-medium text-fg-muted">
          <input type="checkbox" checked={commentsEnabled} onChange={(e) => setCommentsEnabled(e.target.checked)} className="size-4 rounded border-line-strong" />
          {t('edit.allowComments')}
        </label>
        <PrivacyChoice value={privacy} onChange={setPrivacy} />
        <label className="flex items-center gap-2 text-sm font-medium text-fg-muted">
          <input type="checkbox" checked={downloadsEnabled} onChange={(e) => setDownloadsEnabled(e.target.checked)} className="size-4 rounded border-line-strong" />
          {t('edit.allowDownloads')}
        </label>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('common.save')}
          </Button>
        </div>
      </form>
      <CaptionsSection videoId={video._id} />
    </Dialog>
  );
}
