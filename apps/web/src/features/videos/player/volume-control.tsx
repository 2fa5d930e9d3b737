import { Volume1, Volume2, VolumeX } from 'lucide-react';
import { ControlButton } from './control-button.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/** Mute button and volume slider (the slider from 640 px: phones have their own volume keys). */
export function VolumeControl({ volume, muted, onVolume, onMute }: { volume: number; muted: boolean; onVolume: (v: number) => void; onMute: () => void }) {
  const silent = muted || volume === 0;
  const Icon = silent ? VolumeX : volume < 0.5 ? Volume1 : Volume2;
  return (
    <div className="flex items-center">
      <ControlButton label={muted ? t('player.unmute') : t('player.mute')} onClick={onMute}>
        <Icon className="size-5" aria-hidden />
      </ControlButton>
      <input
        type="range"
        aria-label={t('player.volume')}
        aria-valuetext={`${Math.round((muted ? 0 : volume) * 100)}%`}
        min={0}
        max={1}
        step={0.05}
        value={muted ? 0 : volume}
        onChange={(e) => onVolume(Number(e.target.value))}
        className="hidden h-1 w-20 cursor-pointer accent-on-media focus-visible:outline focus-visible:outline-2 focus-visible:outline-on-media sm:block"
      />
    </div>
  );
}
