import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { defaultSettings, SettingsService } from '../src/settings/settings.service.ts';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { expect, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { pgliteExtensions, wrapPglite, wrapPool, type Database } from '../src/db/client.ts';
import { newId } from '../src/lib/ids.ts';
import { createMailer } from '../src/mail/mailer.ts';
import { AccessTokens } from '../src/identity/access-token.ts';
import { UsersRepository, type UserRow } from '../src/modules/users/users.repository.ts';
import { LocalStorage } from '../src/storage/local-storage.ts';
import { tweets, videos } from '../src/db/schema.ts';
import { createContext } from '../src/boot.ts';
import { clipJob } from '@glimpse/media';
import { MediaService } from '../src/media/media-service.ts';
import { parseMail, type ParsedMail } from './mime.ts';

export const engine = process.env.TEST_DB_ENGINE === 'pg' ? 'pg' : 'pglite';

/** A fresh migrated database: a copy of the run's template, never shared between test files. */
export async function freshDatabase(): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  if (engine === 'pg') {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `glimpse_t_${process.ppid}_${newId().replace(/-/g, '').slice(-12)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 5 });
    pool.on('error', () => {});
    const database = wrapPool(pool);
    return {
      database,
      url: url.toString(),
      drop: async () => {
        const a = new pg.Client({ connectionString: base });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await a.end();
      },
    };
  }
  const tarball = await readFile(inject('pgliteTemplate'));
  const client = await PGlite.create({ loadDataDir: new Blob([tarball]), extensions: pgliteExtensions });
  return { database: wrapPglite(client), drop: async () => {} };
}

export interface TestContext {
  ctx: AppContext;
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

export const TEST_ENV = {
  NODE_ENV: 'test',
  JWT_SECRET: 'test-secret-test-secret-test-secret-123',
  RATE_LIMITS_ENABLED: 'false',
  LOG_LEVEL: 'silent',
  WORKER_ENABLED: 'false',
  PUBLIC_URL: 'http://glimpse.test',
  // Processes started by tests take no RTMP port (the live suites start their own ingest on a free one).
  LIVE_RTMP_PORT: '0',
  // Each heartbeat written before its answer, and visibility read every time: suites read what they sent
  // at once (the buffer and the cache have their own tests in the analytics module).
  ANALYTICS_BATCH_ROWS: '1',
  ANALYTICS_VIDEO_CACHE_MS: '0',
} as const;

/** A whole app on its own database and data folder. */
export async function createTestApp(env: Record<string, string> = {}, opts: BuildOptions = {}): Promise<TestContext> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-test-'));
  const config = loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, ...env });
  const { database, drop } = await freshDatabase();
  const settings = new SettingsService(database.db, defaultSettings(config));
  // Read once now, so the first mail has the instance's name (the mailer never waits for the database).
  await settings.get();
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    storage: new LocalStorage(path.join(dataDir, 'media')),
    tokens: new AccessTokens(config.jwtSecret, config.accessTokenTtl),
    mailer: createMailer(config, settings, () => {}),
    media: new MediaService(config.media),
    settings,
  };
  const app = await buildApp(ctx, opts);
  await app.ready();
  return {
    ctx,
    app,
    config,
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

let passwordHash: Promise<string> | undefined;
export const TEST_PASSWORD = 'secret123';

let seq = 0;
/** Inserts a verified user directly (password TEST_PASSWORD). */
export async function createUser(
  ctx: Pick<AppContext, 'db'>,
  over: Partial<{ fullName: string; userName: string; email: string; verified: boolean } & Pick<UserRow, 'role' | 'state' | 'stateReason' | 'suspendedUntil'>> = {},
): Promise<UserRow> {
  seq += 1;
  const base = `user${seq}${newId().slice(-6)}`;
  passwordHash ??= hash(TEST_PASSWORD);
  return new UsersRepository(ctx.db).insert({
    id: newId(),
    fullName: over.fullName ?? `Test User ${seq}`,
    userName: over.userName ?? base,
    email: over.email ?? `${base}@example.com`,
    passwordHash: await passwordHash,
    emailVerifiedAt: over.verified === false ? null : new Date(),
    role: over.role ?? 'user',
    state: over.state ?? 'active',
    stateReason: over.stateReason ?? null,
    suspendedUntil: over.suspendedUntil ?? null,
  });
}

export async function bearer(ctx: AppContext, user: Pick<UserRow, 'id' | 'userName'>): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await ctx.tokens.sign({ id: user.id, userName: user.userName })}` };
}

/** Inserts a video row directly (ready and published unless told otherwise). */
export async function createVideo(
  ctx: Pick<AppContext, 'db'>,
  owner: Pick<UserRow, 'id'>,
  over: Partial<typeof videos.$inferInsert> = {},
): Promise<typeof videos.$inferSelect> {
  const [row] = await ctx.db
    .insert(videos)
    .values({
      id: newId(),
      ownerId: owner.id,
      title: `Video ${++seq}`,
      description: 'A test video',
      duration: 42,
      status: 'ready',
      privacy: 'public',
      ...over,
    })
    .returning();
  return row!;
}

/** Inserts a tweet row directly. */
export async function createTweet(
  ctx: Pick<AppContext, 'db'>,
  owner: Pick<UserRow, 'id'>,
  over: Partial<typeof tweets.$inferInsert> = {},
): Promise<typeof tweets.$inferSelect> {
  const [row] = await ctx.db
    .insert(tweets)
    .values({ id: newId(), ownerId: owner.id, content: `Tweet ${++seq}`, ...over })
    .returning();
  return row!;
}

export interface OutboxMail extends ParsedMail {
  file: string;
}

/** The `.eml` files the outbox mailer wrote to DATA_DIR/outbox, oldest first, decoded. */
export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(names.map(async (name) => ({ file: name, ...parseMail(await readFile(path.join(dir, name), 'utf8')) })));
}

/** The token of the newest mailed link of a kind (optionally to one address). */
export async function lastMailLink(dataDir: string, kind: 'email-verification' | 'password-reset', to?: string): Promise<string> {
  const mails = (await readOutbox(dataDir)).filter((m) => !to || m.to === to).reverse();
  for (const mail of mails) {
    const match = new RegExp(`/${kind}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
    if (match?.[1]) return match[1];
  }
  throw new Error(`No ${kind} mail${to ? ` to ${to}` : ''} in the outbox`);
}

export interface FilePart {
  filename: string;
  content: Buffer;
  contentType?: string;
}

/** A multipart/form-data request body for `app.inject` (strings are fields, FileParts are files). */
export function multipartBody(parts: Record<string, string | FilePart>): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----glimpse${newId().replace(/-/g, '')}`;
  const chunks: Buffer[] = [];
  for (const [name, part] of Object.entries(parts)) {
    const disposition =
      typeof part === 'string'
        ? `Content-Disposition: form-data; name="${name}"\r\n\r\n`
        : `Content-Disposition: form-data; name="${name}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\n${disposition}`), typeof part === 'string' ? Buffer.from(part) : part.content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Asserts the JSON error envelope with a status (and, when given, the exact message). */
export function expectApiError(
  res: { statusCode: number; json(): unknown; headers: Record<string, unknown> },
  status: number,
  message?: string,
): void {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  const body = res.json() as { success: boolean; statusCode: number; message: string };
  expect(body).toMatchObject({ success: false, statusCode: status });
  if (message !== undefined) expect(body.message).toBe(message);
}

/** The engine tests make media with: the one the app uses (what `npm install` brings, unless MEDIA_ENGINE/FFMPEG_PATH say otherwise). */
export const testMedia = new MediaService(loadConfig({ ...TEST_ENV, DATA_DIR: os.tmpdir() }).media);

/** Generates a small test clip (testsrc + sine, H.264/AAC mp4) with the media engine; nothing is checked in. */
export async function makeClip(
  file: string,
  o: { seconds?: number; width?: number; height?: number; fps?: number; audio?: boolean; bitrateKbps?: number } = {},
): Promise<string> {
  await testMedia.engine.run(
    clipJob({
      out: file,
      seconds: o.seconds ?? 4,
      width: o.width ?? 320,
      height: o.height ?? 240,
      fps: o.fps,
      pattern: 'testsrc',
      container: 'mp4',
      video: { codec: 'libx264', bitrate: (o.bitrateKbps ?? 300) * 1000, options: { preset: 'ultrafast' } },
      audio: (o.audio ?? true) ? { codec: 'aac', bitrate: 64_000 } : false,
    }),
  );
  return file;
}

/** Uploads a whole file in 3 MB chunks as the web app does; resolves with the last answer. */
export async function uploadVideo(app: FastifyInstance, headers: Record<string, string>, file: Buffer, title: string, uniqueId = `up-${newId()}`) {
  const chunk = 3 * 1024 * 1024;
  const total = Math.max(1, Math.ceil(file.length / chunk));
  let res;
  for (let i = 0; i < total; i++) {
    res = await postChunk(app, headers, { uniqueId, chunkNumber: i, totalChunks: total }, file.subarray(i * chunk, (i + 1) * chunk), i === total - 1 ? { isLastChunk: 'true', title } : {});
  }
  return res!;
}

/** Posts one upload chunk as the spec's client does (multipart `video` + fields). */
export function postChunk(
  app: FastifyInstance,
  headers: Record<string, string>,
  q: { uniqueId: string; chunkNumber: number | string; totalChunks: number | string },
  chunk: Buffer,
  fields: Record<string, string> = {},
  image?: { data: Buffer; filename: string },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('video', new Blob([chunk]), 'video.mp4');
  if (image) form.append('image', new Blob([image.data]), image.filename);
  const query = new URLSearchParams({ uniqueId: q.uniqueId, chunkNumber: String(q.chunkNumber), totalChunks: String(q.totalChunks) });
  return multipartInject(app, { method: 'POST', url: `/api/v1/videos?${query}`, headers, form });
}

/** Sends a FormData body through `app.inject` (inject does not encode FormData itself). */
export async function multipartInject(
  app: FastifyInstance,
  o: { method: 'POST' | 'PATCH'; url: string; headers: Record<string, string>; form: FormData },
) {
  const req = new Request('http://x/', { method: 'POST', body: o.form });
  const payload = Buffer.from(await req.arrayBuffer());
  return app.inject({
    method: o.method,
    url: o.url,
    headers: { ...o.headers, 'content-type': req.headers.get('content-type')! },
    payload,
  });
}

/** A 1x1 png, the smallest valid thumbnail. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A worker logger that keeps what it was told (tests assert on job/video tags). */
export function memoryLog() {
  const lines: { level: 'info' | 'error'; msg: string; obj: Record<string, unknown> }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => void lines.push({ level: 'info', msg, obj: obj as Record<string, unknown> }),
    error: (obj: object, msg: string) => void lines.push({ level: 'error', msg, obj: obj as Record<string, unknown> }),
  };
}

/**
 * An app booted like `npm start` (createContext: PGlite files in DATA_DIR/db, or the given
 * PostgreSQL URL), so a test can stop it and start another process on the same data.
 */
export async function bootPersistentApp(dataDir: string, databaseUrl?: string, env: Record<string, string> = {}) {
  const config = loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env });
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  await app.ready();
  return {
    ctx,
    app,
    config,
    close: async () => {
      await app.close();
      await ctx.database.close();
    },
  };
}

/**
 * An app with one small rung (a real transcode stays quick) and a 2 s clip to upload; the clip's
 * folder goes with the app on close.
 */
export async function createClipApp(): Promise<TestContext & { clip: Buffer }> {
  const t = await createTestApp({ LADDER_HEIGHTS: '240', LADDER_MAX_KBPS: '400' });
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-clip-'));
  const clip = await readFile(await makeClip(path.join(tmp, 'clip.mp4'), { seconds: 2 }));
  return {
    ...t,
    clip,
    close: async () => {
      await t.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
