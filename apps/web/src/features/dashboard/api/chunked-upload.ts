import { accessTokenForCall, api, ApiError, buildUrl, isApiError, refreshAccessToken } from '@/lib/api-client.ts';
import { storage } from '@/lib/storage.ts';

/**
 * Resumable chunked video upload (spec §4, §7; ARCHITECTURE §6).
 *
 * POST videos?uniqueId&chunkNumber&totalChunks with multipart `video` (the chunk) and
 * `isLastChunk`; the last chunk also carries title, description and image. Those may come later
 * (a promise): every other chunk goes meanwhile, as the form is filled in (early-upload.ts). Chunk numbers
 * start at 0 here (the server takes 0..totalChunks-1 or 1..totalChunks and keeps the numbering).
 * IN_FLIGHT chunks travel at once (any order: the server records each on its own, ADR 018); the
 * last chunk goes only once every other one was answered, so the server finalizes only once
 * everything else is there. A retried chunk replaces the same number: retries are idempotent.
 *
 * Resume: the uniqueId of each file (name + size + lastModified) is kept in localStorage;
 * after a reload the same file asks GET videos/uploads/{uniqueId} which chunks the server
 * holds (data.receivedChunks) and sends only the others. A 404 there starts afresh.
 */
export const CHUNK_BYTES = 3 * 1024 * 1024;
export const FIRST_CHUNK = 0;
/** Chunks sent at once: enough to keep the link busy between one chunk's answer and the next request. */
export const IN_FLIGHT = 4;
const STORE_KEY = 'glimpse.uploads';

export interface FileLike {
  name: string;
  size: number;
  lastModified: number;
  slice(start: number, end: number): Blob;
}

export const chunkCount = (size: number, chunkBytes = CHUNK_BYTES) => Math.max(1, Math.ceil(size / chunkBytes));

/** Byte range [start, end) of chunk `index` (0-based). */
export function chunkBounds(index: number, size: number, chunkBytes = CHUNK_BYTES): [number, number] {
  const start = index * chunkBytes;
  return [start, Math.min(size, start + chunkBytes)];
}

export const fileKey = (file: Pick<FileLike, 'name' | 'size' | 'lastModified'>) => `${file.name}:${file.size}:${file.lastModified}`;

/** Where unfinished uploads remember their uniqueId. */
export interface ResumeStore {
  get(key: string): string | null;
  set(key: string, uniqueId: string): void;
  delete(key: string): void;
}

function readStore(): Record<string, string> {
  const parsed = storage.getJson(STORE_KEY);
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
}

/** Remembered through lib/storage: blocked or full storage only means a file cannot resume after a reload. */
export const localResumeStore: ResumeStore = {
  get: (key) => readStore()[key] ?? null,
  set(key, uniqueId) {
    storage.set(STORE_KEY, JSON.stringify({ ...readStore(), [key]: uniqueId }));
  },
  delete(key) {
    const all = readStore();
    delete all[key];
    storage.set(STORE_KEY, JSON.stringify(all));
  },
};

export interface ChunkQuery {
  uniqueId: string;
  chunkNumber: number;
  totalChunks: number;
}

/** The two calls the uploader makes; the default talks to the server, tests pass a fake. */
export interface UploadTransport {
  /** Chunk numbers the server holds, or null when it knows no such upload. */
  received(uniqueId: string): Promise<number[] | null>;
  /** Sends one chunk; `onProgress` gets the bytes of this request sent so far. */
  send(query: ChunkQuery, body: FormData, onProgress: (loaded: number) => void, signal?: AbortSignal): Promise<unknown>;
  /** Gives up an unfinished upload: the server drops its chunks now rather than when it expires. */
  cancel(uniqueId: string): Promise<void>;
}

/** What the last chunk carries besides its bytes (spec §7). */
export interface LastChunk {
  title: string;
  description: string;
  thumbnail: Blob;
  /** More fields of the last chunk (privacy, schedule). */
  fields?: Record<string, string>;
}

export interface UploadInput {
  file: FileLike;
  /** A promise sends every other chunk first and the last one once it resolves. */
  last: LastChunk | PromiseLike<LastChunk>;
}

export interface UploadOptions {
  transport?: UploadTransport;
  store?: ResumeStore;
  chunkBytes?: number;
  /** Attempts per chunk after the first. */
  retries?: number;
  /** Chunks in flight at once (the last one always goes alone, after the others). */
  inFlight?: number;
  /** Wait before retry number `attempt` (1-based). */
  retryDelay?: (attempt: number) => number;
  /** Bytes of the file confirmed or in flight, of `total`. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
  newId?: () => string;
  /** The upload's uniqueId, once known; `resumed` when the server already held chunks of it. */
  onSession?: (uniqueId: string, resumed: boolean) => void;
  /** Every chunk but the last was answered (the last one waits for `input.last`). */
  onAhead?: () => void;
}

/** Network failures, server errors, timeouts and rate limits may pass on a retry; other 4xx will not. */
export const isRetryable = (err: unknown) =>
  !(err instanceof ApiError) || err.status === 0 || err.status === 408 || err.status === 429 || err.status >= 500;

const cancelled = () => new ApiError(0, 'Upload cancelled');

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(cancelled());
      },
      { once: true },
    );
  });

/** `value`, or a rejection as soon as `signal` aborts (the form may never be sent). */
function unlessAborted<T>(value: T | PromiseLike<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return Promise.resolve(value);
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(value).then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Uploads `input.file` in chunks, resuming what the server already holds; resolves the last chunk's answer. */
export async function uploadInChunks(input: UploadInput, options: UploadOptions = {}): Promise<unknown> {
  const {
    transport = serverTransport,
    store = localResumeStore,
    chunkBytes = CHUNK_BYTES,
    retries = 3,
    inFlight = IN_FLIGHT,
    retryDelay = (attempt) => 1000 * 2 ** (attempt - 1),
    onProgress,
    signal,
    newId = () => crypto.randomUUID(),
    onSession,
    onAhead,
  } = options;
  const { file } = input;
  const total = chunkCount(file.size, chunkBytes);
  const last = FIRST_CHUNK + total - 1;

  const withRetry = async <T>(call: () => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        if (signal?.aborted || attempt >= retries || !isRetryable(err)) throw err;
        await wait(retryDelay(attempt + 1), signal);
      }
    }
  };

  const key = fileKey(file);
  let uniqueId = store.get(key);
  let held = new Set<number>();
  if (uniqueId) {
    const received = await withRetry(() => transport.received(uniqueId!));
    if (received === null) uniqueId = null;
    else held = new Set(received);
  }
  const resumed = uniqueId !== null;
  if (!uniqueId) {
    uniqueId = newId();
    store.set(key, uniqueId);
  }
  onSession?.(uniqueId, resumed);
  if (signal?.aborted) throw cancelled();

  const sizeOf = (n: number) => {
    const [start, end] = chunkBounds(n - FIRST_CHUNK, file.size, chunkBytes);
    return end - start;
  };
  // The last chunk is resent even when held: it is the one that finalizes.
  let done = 0;
  for (const n of held) if (n !== last && n >= FIRST_CHUNK && n < last) done += sizeOf(n);
  /** Bytes sent so far of each chunk in flight (progress is done + these). */
  const sending = new Map<number, number>();
  const report = () => onProgress?.(done + [...sending.values()].reduce((a, b) => a + b, 0), file.size);
  report();

  const send = (n: number, extra: Record<string, string | Blob>) =>
    withRetry(() => {
      // An aborted signal never fires 'abort' again: a chunk after it must not start at all.
      if (signal?.aborted) throw cancelled();
      const [start, end] = chunkBounds(n - FIRST_CHUNK, file.size, chunkBytes);
      const body = new FormData();
      body.append('video', file.slice(start, end), file.name);
      body.append('isLastChunk', String(n === last));
      for (const [k, v] of Object.entries(extra)) body.append(k, v);
      return transport.send({ uniqueId: uniqueId!, chunkNumber: n, totalChunks: total }, body, (loaded) => {
        sending.set(n, loaded);
        report();
      }, signal);
    });

  const pending: number[] = [];
  for (let n = FIRST_CHUNK; n < last; n++) if (!held.has(n)) pending.push(n);
  let failed = false;
  const lane = async () => {
    // One failure stops the other lanes from starting new chunks; the first error is the answer.
    for (let n = pending.shift(); n !== undefined && !failed; n = pending.shift()) {
      try {
        await send(n, {});
      } catch (err) {
        failed = true;
        throw err;
      }
      sending.delete(n);
      done += sizeOf(n);
      report();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, inFlight) }, lane));
  onAhead?.();
  const fields = await unlessAborted(input.last, signal);
  const result = await send(last, { ...fields.fields, title: fields.title, description: fields.description, image: fields.thumbnail });
  store.delete(key);
  onProgress?.(file.size, file.size);
  return result;
}

/** Percent for the progress dialog: 100 only once the server has answered the last chunk. */
export const uploadPercent = (loaded: number, total: number, finished: boolean) =>
  finished ? 100 : Math.min(99, Math.floor((total > 0 ? loaded / total : 0) * 100));

/** XMLHttpRequest, because fetch reports no upload progress. One refresh-and-retry on 'jwt expired'. */
function xhrPost(
  url: string,
  body: FormData,
  token: string | null,
  onProgress: (loaded: number) => void,
  signal?: AbortSignal,
): Promise<{ status: number; body: { message?: string; data?: unknown } }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      let parsed: { message?: string; data?: unknown } = {};
      try {
        parsed = JSON.parse(xhr.responseText) as typeof parsed;
      } catch {
        parsed = { message: xhr.statusText || `HTTP ${xhr.status}` };
      }
      resolve({ status: xhr.status, body: parsed });
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network error'));
    xhr.onabort = () => reject(new ApiError(0, 'Upload cancelled'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(body);
  });
}

export const serverTransport: UploadTransport = {
  async received(uniqueId) {
    try {
      const { data } = await api.get<{ receivedChunks: number[] }>(`videos/uploads/${encodeURIComponent(uniqueId)}`);
      return data.receivedChunks;
    } catch (err) {
      if (isApiError(err, 404)) return null;
      throw err;
    }
  },
  async send(query, body, onProgress, signal) {
    const url = buildUrl('videos', { ...query });
    let res = await xhrPost(url, body, await accessTokenForCall(), onProgress, signal);
    if (res.status === 401 && res.body.message === 'jwt expired') {
      res = await xhrPost(url, body, await refreshAccessToken(), onProgress, signal);
    }
    if (res.status < 200 || res.status >= 300) {
      const data = res.body.data && typeof res.body.data === 'object' ? (res.body.data as Record<string, unknown>) : null;
      throw new ApiError(res.status, res.body.message || `HTTP ${res.status}`, data);
    }
    return res.body.data;
  },
  async cancel(uniqueId) {
    await api.delete(`videos/uploads/${encodeURIComponent(uniqueId)}`);
  },
};
