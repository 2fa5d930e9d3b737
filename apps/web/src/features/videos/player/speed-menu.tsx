import { useId } from 'react';
import { PLAYER_SELECT } from './control-button.tsx';
import { SPEEDS } from './prefs.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** Playback speed, 0.25x to 2x. */
export function SpeedMenu({ speed, onSpeed }: { speed: number; onSpeed: (s: number) => void }) {
  const id = useId();
  return (
    <>
      <label className="sr-only" htmlFor={id}>
        {t('player.speed')}
      </label>
      <select
        id={id}
        value={speed}
        onChange={(e) => onSpeed(Number(e.target.value))}
        className={PLAYER_SELECT}
      >
        {SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}x
          </option>
        ))}
      </select>
    </>
  );
}
