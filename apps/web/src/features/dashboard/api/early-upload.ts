import { chunkCount, fileKey, localResumeStore, serverTransport, uploadInChunks, type FileLike, type LastChunk, type UploadOptions, type UploadTransport } from './chunked-upload.ts';

/**
 * An upload started as soon as the file is picked (issue 34): every chunk but the last goes while
 * the person fills in the form; the last one, which carries the form (spec §7), waits for `finish`.
 * The protocol is the usual one (chunked-upload.ts): a spec client and the server see no difference.
 */
export interface EarlyUpload {
  readonly file: FileLike;
  /** False when the whole file is the last chunk: nothing can go before the form. */
  readonly sendsAhead: boolean;
  /** The same object until something changes (for useSyncExternalStore). */
  state(): AheadState;
  subscribe(listener: () => void): () => void;
  /** Still sending ahead or waiting for the form: `finish` takes it over. */
  usable(): boolean;
  /** Sends the last chunk with the form once the others are answered; resolves the server's answer. */
  finish(last: LastChunk, onProgress?: (loaded: number, total: number) => void): Promise<unknown>;
  /** The person changed the file or closed the form: stop sending, and the server drops what it holds. */
  abandon(): void;
}

export interface AheadState {
  /** Bytes confirmed or in flight, of `total`. */
  loaded: number;
  total: number;
  /** Every chunk but the last was answered: the rest waits for the form. */
  waiting: boolean;
  /** Why sending ahead stopped; Upload then starts again from what the server holds. */
  error: unknown;
}

type Phase = 'ahead' | 'finishing' | 'done' | 'failed' | 'abandoned';

export function sendAhead(file: FileLike, options: Omit<UploadOptions, 'signal' | 'onProgress' | 'onSession' | 'onAhead'> = {}): EarlyUpload {
  const transport = options.transport ?? serverTransport;
  const store = options.store ?? localResumeStore;
  const controller = new AbortController();
  const listeners = new Set<() => void>();
  let state: AheadState = { loaded: 0, total: file.size, waiting: false, error: null };
  const update = (patch: Partial<AheadState>) => {
    state = { ...state, ...patch };
    listeners.forEach((l) => l());
  };
  let phase: Phase = 'ahead';
  let uniqueId: string | null = null;
  // Whether the server may hold a session: cancel only then (a 404 would be noise).
  let serverHolds = false;
  let progress: ((loaded: number, total: number) => void) | undefined;
  let supply: (last: LastChunk) => void = () => undefined;
  const last = new Promise<LastChunk>((resolve) => (supply = resolve));

  const counting: UploadTransport = {
    received: (id) => transport.received(id),
    cancel: (id) => transport.cancel(id),
    send(...args) {
      serverHolds = true;
      return transport.send(...args);
    },
  };
  const result = uploadInChunks(
    { file, last },
    {
      ...options,
      transport: counting,
      store,
      signal: controller.signal,
      onSession(id, resumed) {
        uniqueId = id;
        if (resumed) serverHolds = true;
      },
      onAhead: () => update({ waiting: true }),
      onProgress(loaded, total) {
        update({ loaded, total });
        progress?.(loaded, total);
      },
    },
  );
  result.then(
    () => {
      phase = 'done';
    },
    (error: unknown) => {
      if (phase === 'ahead') update({ error });
      if (phase === 'ahead' || phase === 'finishing') phase = 'failed';
    },
  );

  return {
    file,
    sendsAhead: chunkCount(file.size, options.chunkBytes) > 1,
    state: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    usable: () => phase === 'ahead',
    finish(fields, onProgress) {
      if (phase === 'ahead') {
        phase = 'finishing';
        progress = onProgress;
        onProgress?.(state.loaded, state.total);
        supply(fields);
      }
      return result;
    },
    abandon() {
      if (phase !== 'ahead' && phase !== 'failed') return;
      phase = 'abandoned';
      listeners.clear();
      controller.abort();
      if (!uniqueId) return;
      const key = fileKey(file);
      // Another upload of the same file may have taken the entry since.
      if (store.get(key) === uniqueId) store.delete(key);
      if (serverHolds) void transport.cancel(uniqueId).catch(() => undefined);
    },
  };
}
