import type { VideoCaption } from '@glimpse/contract';
import { useEffect, useReducer } from 'react';
import { captionTracks } from './captions-toggle.tsx';
import { PLAYER_SELECT } from './control-button.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/** The video's WebVTT tracks as `<track>` children of the player's `<video>` (same-origin media URLs). */
export function CaptionTracks({ captions }: { captions: VideoCaption[] }) {
  return captions.map((c) => (c.url ? <track key={c.lang} kind="subtitles" srcLang={c.lang} label={c.label} src={c.url} /> : null));
}

/**
 * Subtitles/CC: Off or one language, for videos with more than one caption track (the Captions
 * toggle turns one on or off). Choosing shows that track (the browser loads its cues then) and
 * disables the others; the toggle remembers the language from the tracks' change event. The
 * value is read from the tracks, so the toggle and the `c` shortcut show here too.
 */
export function CaptionsMenu({ video, captions, id }: { video: HTMLVideoElement | null; captions: VideoCaption[]; id: string }) {
  const [, sync] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const list = video?.textTracks as (TextTrackList & Partial<EventTarget>) | undefined;
    if (typeof list?.addEventListener !== 'function') return;
    list.addEventListener('change', sync);
    return () => list.removeEventListener!('change', sync);
  }, [video]);

  if (!video || captions.length < 2) return null;
  const shown = captionTracks(video).find((t) => t.mode === 'showing')?.language ?? '';
  const choose = (lang: string) => {
    for (const t of captionTracks(video)) t.mode = t.language === lang ? 'showing' : 'disabled';
    sync();
  };
  return (
    <>
      <label className="sr-only" htmlFor={id}>
        {t('player.subtitles')}
      </label>
      <select id={id} value={shown} onChange={(e) => choose(e.target.value)} className={`${PLAYER_SELECT} max-w-24`}>
        <option value="">{t('player.off')}</option>
        {captions.map((c) => (
          <option key={c.lang} value={c.lang}>
            {c.label}
          </option>
        ))}
      </select>
    </>
  );
}
