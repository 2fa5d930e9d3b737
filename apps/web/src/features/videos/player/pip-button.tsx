import { PictureInPicture2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ControlButton } from './control-button.tsx';
import { t } from '@/lib/i18n/i18n.ts';

export const pipSupported = () => typeof document !== 'undefined' && document.pictureInPictureEnabled === true;

/** Enter or leave picture-in-picture; nothing where the browser cannot. */
export function togglePictureInPicture(video: HTMLVideoElement): void {
  if (!pipSupported()) return;
  if (document.pictureInPictureElement === video) void document.exitPictureInPicture().catch(() => undefined);
  else void video.requestPictureInPicture().catch(() => undefined);
}

/** Picture-in-picture button, hidden when the browser has none. */
export function PipButton({ video }: { video: HTMLVideoElement | null }) {
  const [active, setActive] = useState(false);
  useEffect(() => {
    if (!video) return;
    const on = () => setActive(true);
    const off = () => setActive(false);
    video.addEventListener('enterpictureinpicture', on);
    video.addEventListener('leavepictureinpicture', off);
    return () => {
      video.removeEventListener('enterpictureinpicture', on);
      video.removeEventListener('leavepictureinpicture', off);
    };
  }, [video]);
  if (!video || !pipSupported() || video.disablePictureInPicture) return null;
  return (
    <ControlButton label={t('player.pip')} aria-pressed={active} onClick={() => togglePictureInPicture(video)}>
      <PictureInPicture2 className="size-5" aria-hidden />
    </ControlButton>
  );
}
