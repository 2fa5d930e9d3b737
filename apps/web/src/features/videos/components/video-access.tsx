import { Download } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { API_BASE, errorMessage, saveApiDownload } from '@/lib/api-client.ts';
import type { Video } from '@/types/api.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** For the owner: says the video is not public (Unlisted, Private or Scheduled). */
export function PrivacyBadge({ video }: { video: Pick<Video, 'privacy' | 'publishAt'> }) {
  if (video.privacy === 'public') return null;
  const label = video.publishAt ? t('status.scheduled') : video.privacy === 'unlisted' ? t('status.unlisted') : t('status.private');
  return <span className="w-fit rounded-full bg-surface-strong px-2 py-0.5 text-xs font-semibold text-fg">{label}</span>;
}

/**
 * The owner downloads the original (with the Bearer token, so through the API client); viewers
 * download the mp4 by a plain link when the owner allows it (ADR 013).
 */
export function DownloadAction({ video, own }: { video: Pick<Video, '_id' | 'title' | 'downloadsEnabled' | 'status'>; own: boolean }) {
  const [busy, setBusy] = useState(false);
  if (own) {
    const download = async () => {
      setBusy(true);
      try {
        await saveApiDownload(`videos/${video._id}/original`, video.title);
      } catch (err) {
        toast.error(errorMessage(err));
      } finally {
        setBusy(false);
      }
    };
    return (
      <Button variant="secondary" onClick={() => void download()} loading={busy}>
        <Download className="size-4" aria-hidden />
        {t('watch.downloadOriginal')}
      </Button>
    );
  }
  if (!video.downloadsEnabled || video.status !== 'ready') return null;
  return (
    <a
      href={`${API_BASE}/videos/video/${video._id}.mp4?download=1`}
      download
      className="inline-flex h-10 items-center gap-2 rounded-full bg-surface-subtle px-4 text-sm font-medium hover:bg-surface-strong"
    >
      <Download className="size-4" aria-hidden />
      {t('watch.download')}
    </a>
  );
}
