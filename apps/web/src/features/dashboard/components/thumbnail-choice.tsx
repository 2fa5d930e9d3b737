import { CheckCircle2 } from 'lucide-react';
import { useId } from 'react';
import { ImagePickButton } from '@/components/media/image-pick-button.tsx';
import { useObjectUrl } from '@/components/ui/use-object-url.ts';
import { formatDuration } from '@/lib/format.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { FRAME_POSITIONS, type FramePosition, type FramesStatus, type VideoFrame } from './video-frames.ts';

/** Which thumbnail the upload sends: a suggested frame (by its place in the video) or the person's own image. */
export type ThumbnailPick = { kind: 'frame'; position: FramePosition } | { kind: 'own' } | null;

const POSITION_NAMES: Record<FramePosition, string> = { 0.1: 'start', 0.5: 'middle', 0.9: 'end' };

/** The picked thumbnail's file, if it is still on offer. */
export function pickedThumbnail(pick: ThumbnailPick, frames: VideoFrame[], own: File | null): File | null {
  if (pick?.kind === 'own') return own;
  if (pick?.kind === 'frame') return frames.find((f) => f.position === pick.position)?.file ?? null;
  return null;
}

/**
 * The thumbnail as a radio group of pictures (each named by its alt text): three frames of the
 * picked video, made in the browser, and the person's own png/jpeg once chosen. Frames the
 * browser cannot make are simply not offered; the own image always works.
 */
export function ThumbnailChoice({
  frames,
  status,
  own,
  onOwn,
  pick,
  onPick,
  limitMb,
}: {
  frames: VideoFrame[];
  status: FramesStatus;
  own: File | null;
  onOwn: (file: File) => void;
  pick: ThumbnailPick;
  onPick: (pick: ThumbnailPick) => void;
  limitMb: number;
}) {
  const name = useId();
  const hintId = useId();
  const ownUrl = useObjectUrl(own);
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={hintId}>
      <legend className="mb-1 text-sm font-medium text-fg-muted">{t('upload.thumbnail')}</legend>
      {(status === 'making' || frames.length > 0 || ownUrl) && (
        <div className="grid grid-cols-2 gap-2 xs:grid-cols-4" aria-busy={status === 'making' || undefined}>
          {status === 'making'
            ? FRAME_POSITIONS.map((p) => <span key={p} className="aspect-video animate-pulse rounded-lg bg-surface-strong" aria-hidden />)
            : frames.map((f) => (
                <Option
                  key={f.position}
                  name={name}
                  src={f.url}
                  alt={t('upload.frame', { position: POSITION_NAMES[f.position], time: formatDuration(f.time) })}
                  checked={pick?.kind === 'frame' && pick.position === f.position}
                  onCheck={() => onPick({ kind: 'frame', position: f.position })}
                />
              ))}
          {ownUrl && <Option name={name} src={ownUrl} alt={t('upload.ownImage')} checked={pick?.kind === 'own'} onCheck={() => onPick({ kind: 'own' })} />}
        </div>
      )}
      {status === 'making' && <p className="text-xs text-fg-muted">{t('upload.framesMaking')}</p>}
      {status === 'none' && <p className="text-xs text-fg-muted">{t('upload.framesNone')}</p>}
      <div className="flex flex-wrap items-center gap-x-1">
        <ImagePickButton
          label={own ? t('upload.changeOwn') : t('upload.chooseOwn')}
          limitMb={limitMb}
          onPick={(file) => {
            onOwn(file);
            onPick({ kind: 'own' });
          }}
        />
        <p id={hintId} className="px-3 text-xs text-fg-muted">
          {t('upload.thumbHint', { mb: limitMb })}
        </p>
      </div>
    </fieldset>
  );
}

/** One picture of the group: a native radio (arrow keys, name from the image's alt) with a visible ring for focus and choice. */
function Option({ name, src, alt, checked, onCheck }: { name: string; src: string; alt: string; checked: boolean; onCheck: () => void }) {
  return (
    <label className="group relative block aspect-video cursor-pointer overflow-hidden rounded-lg bg-surface-strong ring-2 ring-transparent ring-offset-2 ring-offset-surface has-checked:ring-accent has-focus-visible:outline-2 has-focus-visible:outline-offset-4 has-focus-visible:outline-focus">
      <input type="radio" name={name} checked={checked} onChange={onCheck} className="sr-only" />
      <img src={src} alt={alt} className="size-full object-cover" />
      <CheckCircle2 className="absolute top-1 right-1 hidden size-5 rounded-full bg-accent text-on-accent group-has-checked:block" aria-hidden />
    </label>
  );
}
