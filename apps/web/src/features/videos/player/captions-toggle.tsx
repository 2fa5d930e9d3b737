import { Captions } from 'lucide-react';
import { useEffect, useReducer } from 'react';
import { ControlButton } from './control-button.tsx';
import { readPrefs, savePrefs } from './prefs.ts';
import { t } from '@/lib/i18n/i18n.ts';

const isCaptionTrack = (t: TextTrack) => t.kind === 'captions' || t.kind === 'subtitles';

/** The video's caption and subtitle tracks, whoever added them (`<track>` elements or hls.js). */
export function captionTracks(video: HTMLVideoElement): TextTrack[] {
  return Array.from(video.textTracks ?? []).filter(isCaptionTrack);
}

/**
 * Turn captions on (the remembered language, else the first track) or off. Works on whatever
 * text tracks the element has; the choice is remembered for the next videos.
 */
export function toggleCaptions(video: HTMLVideoElement): void {
  const tracks = captionTracks(video);
  if (tracks.length === 0) return;
  const showing = tracks.some((t) => t.mode === 'showing');
  if (showing) {
    tracks.forEach((t) => (t.mode = 'disabled'));
    savePrefs({ captions: null });
    return;
  }
  const wanted = readPrefs().captions;
  const pick = tracks.find((t) => t.language === wanted) ?? tracks[0]!;
  tracks.forEach((t) => (t.mode = t === pick ? 'showing' : 'disabled'));
  savePrefs({ captions: pick.language });
}

/** Captions were on: show the remembered language's track, unless one is showing already. */
function restoreCaptions(video: HTMLVideoElement): void {
  const wanted = readPrefs().captions;
  const tracks = captionTracks(video);
  if (wanted === null || tracks.some((t) => t.mode === 'showing')) return;
  const track = tracks.find((t) => t.language === wanted);
  if (track) track.mode = 'showing';
}

/** CC button: shown only when the video has caption tracks; pressed while one is showing. */
export function CaptionsToggle({ video }: { video: HTMLVideoElement | null }) {
  // The tracks live on the element: read them at render, re-render when they change.
  const [, sync] = useReducer((n: number) => n + 1, 0);

  useEffect(() => {
    if (!video) return;
    const list = video.textTracks as (TextTrackList & Partial<EventTarget>) | undefined;
    // Tracks present now or arriving later (a captions list loading after the video) follow the
    // remembered choice.
    const refresh = () => {
      restoreCaptions(video);
      sync();
    };
    // A language chosen elsewhere (another captions menu) is remembered too.
    const onChange = () => {
      const shown = captionTracks(video).find((t) => t.mode === 'showing');
      if (shown) savePrefs({ captions: shown.language });
      sync();
    };
    restoreCaptions(video);
    // Also on metadata: where the track list sends no events (jsdom), and hls.js adds its tracks then.
    video.addEventListener('loadedmetadata', refresh);
    const listEvents = typeof list?.addEventListener === 'function';
    if (listEvents) {
      list.addEventListener!('addtrack', refresh);
      list.addEventListener!('removetrack', sync);
      list.addEventListener!('change', onChange);
    }
    return () => {
      video.removeEventListener('loadedmetadata', refresh);
      if (!listEvents) return;
      list.removeEventListener!('addtrack', refresh);
      list.removeEventListener!('removetrack', sync);
      list.removeEventListener!('change', onChange);
    };
  }, [video]);

  const tracks = video ? captionTracks(video) : [];
  if (!video || tracks.length === 0) return null;
  const on = tracks.some((t) => t.mode === 'showing');
  return (
    <ControlButton
      label={t('player.captions')}
      aria-pressed={on}
      onClick={() => {
        toggleCaptions(video);
        sync();
      }}
      className={on ? 'text-on-media' : 'text-on-media/60'}
    >
      <Captions className="size-5" aria-hidden />
    </ControlButton>
  );
}
