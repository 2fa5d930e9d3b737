/** One Server-Sent Event: its name ('message' when unnamed) and data lines joined by newlines. */
export interface SseEvent {
  event: string;
  data: string;
}

/** What a parse step found: the events that are complete, a `retry:` advice if any, and the unfinished rest. */
export interface SseParsed {
  events: SseEvent[];
  retry: number | null;
  rest: string;
}

/**
 * Parses the complete events at the start of `text` (the unparsed rest of the stream plus the
 * newest chunk), per the HTML event-stream format: lines end in LF, CRLF or CR; a blank line ends
 * an event; `:` lines are comments (the server's pings). A chunk may end anywhere, mid-line or
 * between a CR and its LF, so whatever follows the last blank line is handed back as `rest`.
 */
export function parseSse(text: string): SseParsed {
  const events: SseEvent[] = [];
  let retry: number | null = null;
  let event = '';
  let data: string[] = [];
  let start = 0;
  let blockStart = 0;
  const lineBreak = /\r\n|\r|\n/g;
  for (let m = lineBreak.exec(text); m; m = lineBreak.exec(text)) {
    // A CR at the very end may be the first half of a CRLF still on its way.
    if (m[0] === '\r' && m.index === text.length - 1) break;
    const line = text.slice(start, m.index);
    start = m.index + m[0].length;
    if (line === '') {
      if (data.length > 0) events.push({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      blockStart = start;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  }
  return { events, retry, rest: text.slice(blockStart) };
}
