import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { CHUNK_BYTES, chunkBounds, chunkCount, fileKey, localResumeStore, uploadInChunks, uploadPercent, type ChunkQuery, type ResumeStore, type UploadTransport } from './chunked-upload.ts';
import { sendAhead, type EarlyUpload } from './early-upload.ts';

const file = (size: number, name = 'clip.mp4') => new File([new Uint8Array(size).map((_, i) => i % 251)], name, { type: 'video/mp4', lastModified: 42 });
const thumbnail = new File([new Uint8Array([137, 80, 78, 71])], 't.png', { type: 'image/png' });

function memoryStore(initial: Record<string, string> = {}): ResumeStore & { all: Record<string, string> } {
  const all = { ...initial };
  return { all, get: (k) => all[k] ?? null, set: (k, v) => void (all[k] = v), delete: (k) => void delete all[k] };
}

interface Sent {
  query: ChunkQuery;
  bytes: number[];
  isLastChunk: string;
  title: string | null;
  privacy: string | null;
  image: boolean;
}

/** A fake server: records every chunk; `fail` decides which attempts fail and how. */
function fakeTransport(opts: { held?: number[] | null; fail?: (attempt: number, q: ChunkQuery) => ApiError | null } = {}) {
  const sent: Sent[] = [];
  const statusAsked: string[] = [];
  const cancelled: string[] = [];
  let attempts = 0;
  const transport: UploadTransport = {
    async received(id) {
      statusAsked.push(id);
      return opts.held === undefined ? null : opts.held;
    },
    async cancel(id) {
      cancelled.push(id);
    },
    async send(query, body, onProgress) {
      attempts++;
      const err = opts.fail?.(attempts, query);
      if (err) throw err;
      const chunk = body.get('video') as Blob;
      const bytes = Array.from(new Uint8Array(await chunk.arrayBuffer()));
      onProgress(bytes.length);
      sent.push({ query, bytes, isLastChunk: String(body.get('isLastChunk')), title: body.get('title') as string | null, privacy: body.get('privacy') as string | null, image: body.get('image') !== null });
      return { _id: 'v1' };
    },
  };
  return { transport, sent, statusAsked, cancelled };
}

const lastChunk = { title: 'My clip', description: 'About it', thumbnail, fields: { privacy: 'unlisted' } };
const input = (f: File) => ({ file: f, last: lastChunk });

describe('chunk math', () => {
  it('splits into 3 MB chunks, at least one', () => {
    expect(CHUNK_BYTES).toBe(3 * 1024 * 1024);
    expect(chunkCount(0)).toBe(1);
    expect(chunkCount(CHUNK_BYTES)).toBe(1);
    expect(chunkCount(CHUNK_BYTES + 1)).toBe(2);
    expect(chunkCount(7 * 1024 * 1024)).toBe(3);
    expect(chunkBounds(2, 7 * 1024 * 1024)).toEqual([6 * 1024 * 1024, 7 * 1024 * 1024]);
    expect(chunkBounds(0, 10, 4)).toEqual([0, 4]);
    expect(chunkBounds(2, 10, 4)).toEqual([8, 10]);
  });

  it('keys a file by name, size and last modified time', () => {
    expect(fileKey({ name: 'a.mp4', size: 10, lastModified: 5 })).toBe('a.mp4:10:5');
  });

  it('shows 100% only once the server answered the last chunk', () => {
    expect(uploadPercent(10, 10, false)).toBe(99);
    expect(uploadPercent(5, 10, false)).toBe(50);
    expect(uploadPercent(10, 10, true)).toBe(100);
  });
});

describe('uploadInChunks', () => {
  it('sends every chunk in order from 0, flags only the last, which carries the metadata', async () => {
    const { transport, sent } = fakeTransport();
    const store = memoryStore();
    const f = file(10);
    const progress: number[] = [];
    const result = await uploadInChunks(input(f), { transport, store, chunkBytes: 4, newId: () => 'up1', onProgress: (l) => progress.push(l) });
    expect(result).toEqual({ _id: 'v1' });
    expect(sent.map((s) => s.query)).toEqual([0, 1, 2].map((n) => ({ uniqueId: 'up1', chunkNumber: n, totalChunks: 3 })));
    expect(sent.map((s) => s.isLastChunk)).toEqual(['false', 'false', 'true']);
    expect(sent.map((s) => s.title)).toEqual([null, null, 'My clip']);
    expect(sent.map((s) => s.privacy)).toEqual([null, null, 'unlisted']);
    expect(sent.map((s) => s.image)).toEqual([false, false, true]);
    // The chunks put together are the file.
    expect(sent.flatMap((s) => s.bytes)).toEqual(Array.from(new Uint8Array(await f.arrayBuffer())));
    expect(progress.at(-1)).toBe(10);
    expect(store.all).toEqual({});
  });

  it('keeps 4 chunks in flight, answered in any order, and sends the last one only after all the others were answered', async () => {
    const waiting: { n: number; release: () => void }[] = [];
    const events: string[] = [];
    let inFlight = 0;
    let most = 0;
    const transport: UploadTransport = {
      received: async () => null,
      cancel: async () => undefined,
      async send(query) {
        inFlight++;
        most = Math.max(most, inFlight);
        events.push(`start ${query.chunkNumber}`);
        await new Promise<void>((release) => waiting.push({ n: query.chunkNumber, release }));
        inFlight--;
        events.push(`done ${query.chunkNumber}`);
        return { _id: 'v1' };
      },
    };
    const upload = uploadInChunks(input(file(40)), { transport, store: memoryStore(), chunkBytes: 4, newId: () => 'par' });
    // Answer the newest request first, whenever requests wait: the server takes them in any order.
    while (!events.includes('done 9')) {
      await new Promise((r) => setTimeout(r, 0));
      waiting.pop()?.release();
    }
    await upload;
    expect(most).toBe(4);
    const started = events.filter((e) => e.startsWith('start')).map((e) => Number(e.split(' ')[1]));
    expect([...started].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The last chunk (9) starts after every other chunk was answered.
    const lastStart = events.indexOf('start 9');
    for (let n = 0; n < 9; n++) expect(events.indexOf(`done ${n}`)).toBeLessThan(lastStart);
  });

  it('stops starting chunks after one fails for good, and answers with that error', async () => {
    const { transport, sent } = fakeTransport({ fail: (_n, q) => (q.chunkNumber === 0 ? new ApiError(400, 'Bad chunk') : null) });
    await expect(uploadInChunks(input(file(40)), { transport, store: memoryStore(), chunkBytes: 4, newId: () => 'u' })).rejects.toThrow('Bad chunk');
    // Chunks 1-3 were already in flight; nothing after them started, and the last was never sent.
    expect(sent.map((s) => s.query.chunkNumber).sort()).toEqual([1, 2, 3]);
  });

  it('remembers the uniqueId until the upload finishes', async () => {
    const store = memoryStore();
    const f = file(10);
    const { transport } = fakeTransport({ fail: (_n, q) => (q.chunkNumber === 1 ? new ApiError(400, 'Bad chunk') : null) });
    await expect(uploadInChunks(input(f), { transport, store, chunkBytes: 4, newId: () => 'up1' })).rejects.toThrow('Bad chunk');
    expect(store.all).toEqual({ [fileKey(f)]: 'up1' });
  });

  it('resumes: asks the server which chunks it holds and sends only the others (the last one always)', async () => {
    const f = file(10);
    const store = memoryStore({ [fileKey(f)]: 'old' });
    const { transport, sent, statusAsked } = fakeTransport({ held: [0, 2] });
    const progress: number[] = [];
    await uploadInChunks(input(f), { transport, store, chunkBytes: 4, newId: () => 'new', onProgress: (l) => progress.push(l) });
    expect(statusAsked).toEqual(['old']);
    expect(sent.map((s) => [s.query.uniqueId, s.query.chunkNumber])).toEqual([
      ['old', 1],
      ['old', 2],
    ]);
    // Chunk 0 counts as done from the start.
    expect(progress[0]).toBe(4);
  });

  it('starts afresh with a new uniqueId when the server knows no such upload', async () => {
    const f = file(5);
    const store = memoryStore({ [fileKey(f)]: 'gone' });
    const { transport, sent } = fakeTransport({ held: null });
    await uploadInChunks(input(f), { transport, store, chunkBytes: 4, newId: () => 'fresh' });
    expect(sent.map((s) => s.query.uniqueId)).toEqual(['fresh', 'fresh']);
  });

  it('retries a chunk after network and server errors, then goes on', async () => {
    const { transport, sent } = fakeTransport({ fail: (n) => (n === 1 ? new ApiError(0, 'Network error') : n === 2 ? new ApiError(503, 'Busy') : null) });
    const delays: number[] = [];
    await uploadInChunks(input(file(6)), {
      transport,
      store: memoryStore(),
      chunkBytes: 4,
      newId: () => 'u',
      retryDelay: (a) => (delays.push(a), 0),
    });
    expect(delays).toEqual([1, 2]);
    expect(sent.map((s) => s.query.chunkNumber)).toEqual([0, 1]);
  });

  it('gives up after the retries and does not retry client errors', async () => {
    const always = fakeTransport({ fail: () => new ApiError(500, 'Down') });
    await expect(uploadInChunks(input(file(3)), { transport: always.transport, store: memoryStore(), retries: 2, retryDelay: () => 0, newId: () => 'u' })).rejects.toThrow('Down');

    let calls = 0;
    const tooBig = fakeTransport({ fail: () => (calls++, new ApiError(413, 'File size should not exceed 50MB')) });
    await expect(uploadInChunks(input(file(3)), { transport: tooBig.transport, store: memoryStore(), retryDelay: () => 0, newId: () => 'u' })).rejects.toThrow('50MB');
    expect(calls).toBe(1);
  });

  it('keeps unfinished uploads in localStorage', () => {
    localResumeStore.set('a:1:2', 'id-1');
    expect(localResumeStore.get('a:1:2')).toBe('id-1');
    localResumeStore.delete('a:1:2');
    expect(localResumeStore.get('a:1:2')).toBeNull();
  });
});

/** A transport whose chunk requests wait until released (oldest first), to see what starts when. */
function heldTransport() {
  const started: ChunkQuery[] = [];
  const waiting: (() => void)[] = [];
  const cancelled: string[] = [];
  const transport: UploadTransport = {
    received: async () => null,
    cancel: async (id) => void cancelled.push(id),
    async send(query) {
      started.push(query);
      await new Promise<void>((release) => waiting.push(release));
      return { _id: 'v1' };
    },
  };
  return { transport, started, cancelled, releaseAll: () => waiting.splice(0).forEach((r) => r()) };
}

const settle = () => new Promise((r) => setTimeout(r, 0));
/** Resolves once `upload` says every chunk but the last was answered. */
const waitingForForm = (upload: EarlyUpload) =>
  new Promise<void>((resolve) => {
    if (upload.state().waiting) return resolve();
    const stop = upload.subscribe(() => upload.state().waiting && (stop(), resolve()));
  });

describe('sendAhead: the upload starts when the file is picked (issue 34)', () => {
  it('sends every chunk but the last at once; the last one, with the form, only once finish() gives it', async () => {
    const { transport, sent } = fakeTransport();
    const store = memoryStore();
    const f = file(10);
    const upload = sendAhead(f, { transport, store, chunkBytes: 4, newId: () => 'early' });
    expect(upload.sendsAhead).toBe(true);
    await waitingForForm(upload);
    await settle();
    // Chunks 0 and 1 are on the server, nothing of the form went, and the last chunk waits.
    expect(sent.map((s) => [s.query.chunkNumber, s.isLastChunk, s.title])).toEqual([
      [0, 'false', null],
      [1, 'false', null],
    ]);
    expect(upload.state()).toMatchObject({ loaded: 8, total: 10, waiting: true, error: null });
    expect(store.all).toEqual({ [fileKey(f)]: 'early' });
    expect(upload.usable()).toBe(true);

    const progress: number[] = [];
    await expect(upload.finish(lastChunk, (loaded) => progress.push(loaded))).resolves.toEqual({ _id: 'v1' });
    // The dialog starts where sending ahead got to.
    expect(progress[0]).toBe(8);
    expect(progress.at(-1)).toBe(10);
    expect(sent.map((s) => [s.query.chunkNumber, s.isLastChunk, s.title, s.privacy, s.image])).toEqual([
      [0, 'false', null, null, false],
      [1, 'false', null, null, false],
      [2, 'true', 'My clip', 'unlisted', true],
    ]);
    expect(sent.flatMap((s) => s.bytes)).toEqual(Array.from(new Uint8Array(await f.arrayBuffer())));
    expect(store.all).toEqual({});
  });

  it('abandoned (another file, the form closed): starts no other chunk, never the last, and the server drops the session', async () => {
    const { transport, started, cancelled, releaseAll } = heldTransport();
    const store = memoryStore();
    const f = file(40);
    const upload = sendAhead(f, { transport, store, chunkBytes: 4, inFlight: 2, newId: () => 'gone' });
    const heard: unknown[] = [];
    upload.subscribe(() => heard.push(upload.state()));
    await settle();
    expect(started.map((q) => q.chunkNumber)).toEqual([0, 1]);
    upload.abandon();
    const heardBefore = heard.length;
    // The two in flight are answered after all: nothing follows them.
    releaseAll();
    await settle();
    await settle();
    expect(started.map((q) => q.chunkNumber)).toEqual([0, 1]);
    expect(cancelled).toEqual(['gone']);
    expect(store.all).toEqual({});
    expect(upload.usable()).toBe(false);
    expect(heard).toHaveLength(heardBefore);
    // Abandoning twice asks the server once.
    upload.abandon();
    expect(cancelled).toEqual(['gone']);
  });

  it('does not ask the server to drop an upload it never got, nor one handed over to finish', async () => {
    const small = fakeTransport();
    const store = memoryStore();
    const one = sendAhead(file(3), { transport: small.transport, store, chunkBytes: 4, newId: () => 'one' });
    // One chunk: it is the last, so nothing can go before the form.
    expect(one.sendsAhead).toBe(false);
    await settle();
    expect(small.sent).toEqual([]);
    one.abandon();
    expect(small.cancelled).toEqual([]);
    expect(store.all).toEqual({});

    const handed = fakeTransport();
    const two = sendAhead(file(10), { transport: handed.transport, store: memoryStore(), chunkBytes: 4, newId: () => 'two' });
    const done = two.finish(lastChunk);
    two.abandon();
    await expect(done).resolves.toEqual({ _id: 'v1' });
    expect(handed.cancelled).toEqual([]);
    expect(handed.sent.map((s) => s.query.chunkNumber)).toEqual([0, 1, 2]);
  });

  it('keeps a failure of sending ahead for the form and is then no longer usable (Upload starts afresh)', async () => {
    const { transport, sent, cancelled } = fakeTransport({ fail: (_n, q) => (q.chunkNumber === 0 ? new ApiError(413, 'File size should not exceed 1MB') : null) });
    const upload = sendAhead(file(10), { transport, store: memoryStore(), chunkBytes: 4, inFlight: 1, newId: () => 'bad' });
    await new Promise<void>((resolve) => upload.subscribe(() => upload.state().error && resolve()));
    expect((upload.state().error as ApiError).message).toBe('File size should not exceed 1MB');
    expect(upload.usable()).toBe(false);
    expect(sent).toEqual([]);
    // A form closed after a failure still tells the server (a network failure may have left chunks there).
    upload.abandon();
    expect(cancelled).toEqual(['bad']);
  });
});
