import { describe, expect, it } from 'vitest';
import { parseSse, type SseEvent } from './sse.ts';

/** Feeds `chunks` one by one as the stream reader does, collecting every event and the last retry advice. */
function feed(chunks: string[]) {
  const events: SseEvent[] = [];
  let rest = '';
  let retry: number | null = null;
  for (const chunk of chunks) {
    const parsed = parseSse(rest + chunk);
    events.push(...parsed.events);
    rest = parsed.rest;
    retry = parsed.retry ?? retry;
  }
  return { events, retry, rest };
}

const stream = 'retry: 3000\n\nevent: unread\ndata: {"unread":3}\n\n: ping\n\nevent: unread\ndata: {"unread":12}\n\n';
const expected = [
  { event: 'unread', data: '{"unread":3}' },
  { event: 'unread', data: '{"unread":12}' },
];

describe('parseSse', () => {
  it('reads named events, skips comments and reads the retry advice', () => {
    expect(feed([stream])).toEqual({ events: expected, retry: 3000, rest: '' });
  });

  it('gives the same events however the stream is cut into reads', () => {
    for (let i = 1; i < stream.length; i++) {
      for (const j of [i + 1, i + 7, stream.length]) {
        const cut = [stream.slice(0, i), stream.slice(i, j), stream.slice(j)];
        expect(feed(cut).events, `cut at ${i} and ${j}`).toEqual(expected);
      }
    }
  });

  it('holds an event back until its blank line arrives', () => {
    const first = parseSse('event: unread\ndata: {"unread":1}\n');
    expect(first.events).toEqual([]);
    expect(parseSse(`${first.rest}\n`).events).toEqual([{ event: 'unread', data: '{"unread":1}' }]);
  });

  it('accepts CRLF and CR line ends, also with a CRLF split between two reads', () => {
    expect(feed(['event: unread\r\ndata: {"unread":2}\r', '\n\r', '\n']).events).toEqual([{ event: 'unread', data: '{"unread":2}' }]);
    // A CR that ends a read may be half of a CRLF: that event waits for the next read.
    expect(feed(['event: unread\rdata: 5\r\r']).events).toEqual([]);
    expect(feed(['event: unread\rdata: 5\r\r', ': ping\r']).events).toEqual([{ event: 'unread', data: '5' }]);
  });

  it('joins data lines, names unnamed events "message" and drops events without data', () => {
    expect(feed(['data: a\ndata:b\n\nevent: empty\n\nid: 4\ndata\n\n']).events).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'message', data: '' },
    ]);
  });
});
