import { HEARTBEAT_INTERVAL_S, HEARTBEAT_MAX_POSITIONS, heartbeatBody, type HeartbeatBody } from '@glimpse/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachWatchReporter, createWatchReporter, newSessionId, PositionCollector, resolveSource } from './watch-reporter.ts';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Plays `from`..`to` seconds as timeupdate does, four times a second. */
function play(c: { played: (t: number) => void }, from: number, to: number) {
  for (let t = from; t <= to; t += 0.25) c.played(t);
}

describe('played positions', () => {
  it('collects each whole second played once, in order', () => {
    const c = new PositionCollector();
    play(c, 0, 7.5);
    expect(c.take()).toEqual([range(0, 7)]);
    expect(c.take()).toEqual([]);
  });

  it('does not fill the seconds a seek skipped, backwards or forwards', () => {
    const c = new PositionCollector();
    play(c, 0, 3);
    c.seeked();
    play(c, 20, 22);
    c.seeked();
    play(c, 10, 11);
    expect(c.take()).toEqual([[0, 1, 2, 3, 10, 11, 20, 21, 22]]);
  });

  it('fills the short gaps of fast playback, not a jump without a seek event', () => {
    const c = new PositionCollector();
    [0, 2, 4, 6].forEach((t) => c.played(t));
    c.played(30);
    expect(c.take()).toEqual([[...range(0, 6), 30]]);
  });

  it('ignores times that are no position', () => {
    const c = new PositionCollector();
    [NaN, -1, Infinity].forEach((t) => c.played(t));
    expect(c.take()).toEqual([]);
  });

  it('splits a long run into batches the contract accepts', () => {
    const c = new PositionCollector();
    play(c, 0, 2 * HEARTBEAT_MAX_POSITIONS + 9);
    const batches = c.take();
    expect(batches.map((b) => b.length)).toEqual([HEARTBEAT_MAX_POSITIONS, HEARTBEAT_MAX_POSITIONS, 10]);
    expect(batches.flat()).toEqual(range(0, 2 * HEARTBEAT_MAX_POSITIONS + 9));
  });
});

describe('reports', () => {
  const sessionId = newSessionId();
  const reporter = () => {
    const sent: { body: HeartbeatBody; keepalive: boolean }[] = [];
    const r = createWatchReporter({
      videoId: '0190f5d2-7c2a-7000-8000-000000000001',
      sessionId,
      source: 'search',
      send: async (body, keepalive) => void sent.push({ body, keepalive }),
    });
    return { r, sent };
  };

  it('sends contract-valid bodies, one per batch, and nothing when nothing played', () => {
    const { r, sent } = reporter();
    r.flush(false);
    expect(sent).toEqual([]);
    play(r, 0, HEARTBEAT_MAX_POSITIONS + 1.5);
    r.flush(true);
    expect(sent.map((s) => [s.body.positions.length, s.keepalive])).toEqual([
      [HEARTBEAT_MAX_POSITIONS, true],
      [2, true],
    ]);
    for (const s of sent) expect(heartbeatBody.parse(s.body)).toEqual(s.body);
    expect(sent[0]!.body).toMatchObject({ sessionId, source: 'search' });
  });

  it('drops a failed report without throwing', async () => {
    const send = vi.fn(async () => Promise.reject(new Error('offline')));
    const r = createWatchReporter({ videoId: 'v', sessionId, source: 'home', send });
    r.played(1);
    r.flush(false);
    await Promise.resolve();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('makes a UUID v4 session id, also where crypto.randomUUID is missing (http)', () => {
    expect(newSessionId()).not.toBe(newSessionId());
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => real.getRandomValues(a) });
    const id = newSessionId();
    vi.unstubAllGlobals();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('a reporter attached to a <video>', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  function setup() {
    const video = document.createElement('video');
    const state = { time: 0, paused: true, seeking: false };
    Object.defineProperties(video, {
      currentTime: { get: () => state.time },
      paused: { get: () => state.paused },
      seeking: { get: () => state.seeking },
    });
    const flushes: boolean[] = [];
    const played: number[] = [];
    const detach = attachWatchReporter(video, { played: (t) => played.push(t), seeked: () => played.push(-1), flush: (k) => flushes.push(k) });
    const at = (time: number, event = 'timeupdate') => {
      state.time = time;
      video.dispatchEvent(new Event(event));
    };
    return { video, state, flushes, played, detach, at };
  }

  it('reports every interval while playing, and at once (keepalive) on pause and end', () => {
    const { state, flushes, at } = setup();
    state.paused = false;
    at(0, 'play');
    vi.advanceTimersByTime(HEARTBEAT_INTERVAL_S * 1000 * 2);
    expect(flushes).toEqual([false, false]);
    state.paused = true;
    at(10, 'pause');
    expect(flushes).toEqual([false, false, true]);
    vi.advanceTimersByTime(HEARTBEAT_INTERVAL_S * 1000 * 3);
    expect(flushes).toHaveLength(3);
    at(10, 'ended');
    expect(flushes).toEqual([false, false, true, true]);
  });

  it('counts time only while playing and passes seeks on', () => {
    const { state, played, at } = setup();
    at(3);
    state.paused = false;
    at(4);
    state.seeking = true;
    at(9, 'seeking');
    at(9);
    state.seeking = false;
    at(9.25);
    expect(played).toEqual([4, -1, 9.25]);
  });

  it('flushes with keepalive on pagehide, a hidden tab and detach; then listens no more', () => {
    const { flushes, played, detach, at } = setup();
    window.dispatchEvent(new Event('pagehide'));
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    detach();
    expect(flushes).toEqual([true, true, true]);
    window.dispatchEvent(new Event('pagehide'));
    at(5, 'play');
    vi.advanceTimersByTime(HEARTBEAT_INTERVAL_S * 1000 * 2);
    expect(flushes).toHaveLength(3);
    expect(played).toEqual([]);
  });
});

describe('traffic source', () => {
  const host = 'glimpse.test';
  it('takes the source a link of the app gave, whatever the referrer', () => {
    expect(resolveSource({ state: { source: 'subscriptions' }, referrer: 'https://elsewhere.test/', host, landed: true })).toBe('subscriptions');
  });
  it('is external for another site that led to the landing page, else direct', () => {
    expect(resolveSource({ state: null, referrer: 'https://elsewhere.test/post', host, landed: true })).toBe('external');
    expect(resolveSource({ state: null, referrer: `https://${host}/search`, host, landed: true })).toBe('direct');
    expect(resolveSource({ state: null, referrer: '', host, landed: true })).toBe('direct');
    expect(resolveSource({ state: null, referrer: 'not a url', host, landed: true })).toBe('direct');
  });
  it('is direct after in-app moves without a source, though the visit began elsewhere', () => {
    expect(resolveSource({ state: null, referrer: 'https://elsewhere.test/', host, landed: false })).toBe('direct');
  });
  it('ignores a source the contract does not know', () => {
    expect(resolveSource({ state: { source: 'newsletter' }, referrer: '', host, landed: false })).toBe('direct');
  });
});
