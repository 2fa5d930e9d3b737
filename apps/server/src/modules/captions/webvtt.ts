import { CAPTION_MAX_BYTES } from '@glimpse/contract';
import { badRequest, tooLarge } from '../../lib/errors.ts';

/** Limits of one caption file: enough for any real film, small enough to parse in one go. */
export const MAX_CUES = 20_000;
export const MAX_CUE_CHARS = 1_000;
/** 100 hours: a cue after that is a typo, not a caption. */
const MAX_TIME_MS = 100 * 3600 * 1000;

export interface Cue {
  start: number;
  end: number;
  text: string;
}

export interface Captions {
  /** Normalised WebVTT: header, then each cue's timing and text. */
  vtt: string;
  /** The cues' words without markup, for search. */
  plain: string;
  cues: Cue[];
}

const fail = (message: string) => badRequest(message);
const atLine = (line: number, message: string) => fail(`Line ${line}: ${message}`);

/** `HH:MM:SS.mmm` or `MM:SS.mmm` (WebVTT), `HH:MM:SS,mmm` (SRT; a dot is tolerated), in ms; null when malformed. */
export function parseTimestamp(raw: string, srt: boolean): number | null {
  const m = srt ? /^(\d{1,3}):(\d{2}):(\d{2})[,.](\d{3})$/.exec(raw) : /^(?:(\d{1,3}):)?(\d{2}):(\d{2})\.(\d{3})$/.exec(raw);
  if (!m) return null;
  const [h, min, s, ms] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3]), Number(m[4])];
  if (min > 59 || s > 59) return null;
  const total = ((h * 60 + min) * 60 + s) * 1000 + ms;
  return total <= MAX_TIME_MS ? total : null;
}

export function formatTimestamp(ms: number): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = Math.floor(ms / 3_600_000);
  const min = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(min)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** The markup WebVTT and SRT share; anything else (SRT's <font>, stray `<`) is dropped or escaped. */
const KEPT_TAG = /^<\/?(?:i|b|u)>$/i;

function cleanText(lines: string[]): string {
  return lines
    .map((line) =>
      line
        .replace(/<[^>]*>|<|&(?![a-z]+;|#\d+;)/gi, (tok) => (tok === '<' ? '&lt;' : tok.startsWith('&') ? '&amp;' : KEPT_TAG.test(tok) ? tok.toLowerCase() : ''))
        .trimEnd(),
    )
    .join('\n')
    .trim();
}

const plainOf = (text: string) =>
  text
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The file as text: UTF-8 (a BOM is dropped), no control characters but tab and line breaks. */
function decode(bytes: Buffer): string {
  if (bytes.length > CAPTION_MAX_BYTES) throw tooLarge(CAPTION_MAX_BYTES / (1024 * 1024));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fail('The caption file is not UTF-8 text');
  }
  text = text.replace(/^\uFEFF/, '');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text)) throw fail('The caption file is not text (it contains control characters)');
  return text;
}

/**
 * Reads an SRT or WebVTT file and answers its normalised WebVTT, or a 400 naming the first bad
 * line: timestamps, cue order (a cue may not start before the previous one), text length.
 * WebVTT's NOTE, STYLE and REGION blocks and cue identifiers are dropped.
 */
export function toWebVtt(bytes: Buffer): Captions {
  const lines = decode(bytes).split(/\r\n|\r|\n/);
  const vtt = /^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '');
  if (!vtt && !lines.some((l) => l.includes('-->'))) throw fail('This is not an SRT or WebVTT file (no cue timings found)');
  const cues: Cue[] = [];
  let i = 0;
  if (vtt) while (i < lines.length && lines[i]!.trim() !== '') i++; // the header block
  while (i < lines.length) {
    while (i < lines.length && lines[i]!.trim() === '') i++;
    if (i >= lines.length) break;
    const blockStart = i;
    const block: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '') block.push(lines[i++]!);
    if (vtt && /^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(block[0]!)) continue;
    const t = block.findIndex((l) => l.includes('-->'));
    if (t === -1 || t > 1) throw atLine(blockStart + 1, 'expected a cue timing such as 00:00:01.000 --> 00:00:02.500');
    if (!vtt && t === 1 && !/^\d+$/.test(block[0]!.trim())) throw atLine(blockStart + 1, 'expected the cue number');
    const lineNo = blockStart + t + 1;
    const [rawStart = '', rest = ''] = block[t]!.split('-->').map((s) => s.trim());
    const rawEnd = rest.split(/[ \t]+/)[0] ?? '';
    const start = parseTimestamp(rawStart, !vtt);
    const end = parseTimestamp(rawEnd, !vtt);
    if (start === null) throw atLine(lineNo, `invalid start time "${rawStart.slice(0, 30)}"`);
    if (end === null) throw atLine(lineNo, `invalid end time "${rawEnd.slice(0, 30)}"`);
    if (end <= start) throw atLine(lineNo, 'the cue ends before it starts');
    const previous = cues.at(-1);
    if (previous && start < previous.start) throw atLine(lineNo, 'the cue starts before the previous cue (cues must be in time order)');
    const textLines = block.slice(t + 1);
    const nested = textLines.findIndex((l) => l.includes('-->'));
    if (nested !== -1) throw atLine(lineNo + nested + 1, 'a cue timing inside cue text (a blank line is missing)');
    const text = cleanText(textLines);
    if (text.length > MAX_CUE_CHARS) throw atLine(lineNo + 1, `the cue text is longer than ${MAX_CUE_CHARS} characters`);
    if (text === '') continue; // an empty cue shows nothing
    cues.push({ start, end, text });
    if (cues.length > MAX_CUES) throw atLine(lineNo, `more than ${MAX_CUES} cues`);
  }
  if (cues.length === 0) throw fail('The caption file has no cues');
  return {
    vtt: `WEBVTT\n\n${cues.map((c) => `${formatTimestamp(c.start)} --> ${formatTimestamp(c.end)}\n${c.text}\n`).join('\n')}`,
    plain: cues.map((c) => plainOf(c.text)).join('\n'),
    cues,
  };
}
