/**
 * Subtitle renditions in HLS (RFC 8216 §4.3.4.1): the transcoder's master playlist gets one
 * `#EXT-X-MEDIA:TYPE=SUBTITLES` per caption and `SUBTITLES="subs"` on each variant; each caption
 * gets a one-segment media playlist naming its WebVTT file. Both are written at serving time, so
 * captions added, replaced or deleted after the transcode show at once (media-access route).
 */
export const SUBS_GROUP = 'subs';

export interface SubtitleRendition {
  lang: string;
  label: string;
  /** The subtitle playlist, relative to the master playlist. */
  uri: string;
}

const quoted = (v: string) => `"${v.replace(/["\r\n]/g, "'")}"`;

export function masterWithSubtitles(master: string, subs: SubtitleRendition[]): string {
  const lines = master
    .split(/\r?\n/)
    .filter((l) => !l.startsWith('#EXT-X-MEDIA:TYPE=SUBTITLES'))
    .map((l) => (l.startsWith('#EXT-X-STREAM-INF:') ? l.replace(/,SUBTITLES="[^"]*"/, '') : l));
  if (subs.length === 0) return lines.join('\n');
  const media = subs.map(
    (s, i) =>
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="${SUBS_GROUP}",NAME=${quoted(s.label)},LANGUAGE=${quoted(s.lang)},DEFAULT=NO,AUTOSELECT=${i === 0 ? 'YES' : 'NO'},URI=${quoted(s.uri)}`,
  );
  const out: string[] = [];
  let placed = false;
  for (const line of lines) {
    if (!placed && line.startsWith('#EXT-X-STREAM-INF:')) {
      out.push(...media);
      placed = true;
    }
    out.push(line.startsWith('#EXT-X-STREAM-INF:') ? `${line},SUBTITLES="${SUBS_GROUP}"` : line);
  }
  return out.join('\n');
}

/** A VOD playlist of one WebVTT segment lasting the whole video. */
export function subtitlePlaylist(vttName: string, durationSeconds: number): string {
  const duration = Math.max(1, durationSeconds);
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${Math.ceil(duration)}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    `#EXTINF:${duration.toFixed(3)},`,
    vttName,
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');
}
