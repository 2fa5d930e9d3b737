import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteExtensions, queryRows, wrapPglite, type Executor } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { createWorker } from '../../worker.ts';
import { newId } from '../../lib/ids.ts';
import {
  bearer,
  bootPersistentApp,
  createTestApp,
  createUser,
  engine,
  freshDatabase,
  makeClip,
  memoryLog,
  postChunk,
  type TestContext,
} from '../../../test/harness.ts';
import { call, expectError } from '../../../test/http.ts';
import { storeReadyVideo } from '../../../test/media.ts';
import type { UserRow } from '../users/users.repository.ts';
import { PUBLISH_QUEUE } from './privacy.ts';

const HOUR = 3600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

interface PublishJob {
  id: string;
  status: string;
  run_at: Date | string;
  payload: { videoId: string; publishAt: string };
}
const publishJobs = (db: Executor, videoId: string) =>
  queryRows<PublishJob>(db, sql`SELECT id, status, run_at, payload FROM jobs WHERE queue = ${PUBLISH_QUEUE} AND payload ->> 'videoId' = ${videoId} ORDER BY created_at`);
/** The schedule's time comes: its queued job is due now (no waiting in tests). */
const timeComes = (db: Executor, videoId: string) =>
  db.execute(sql`UPDATE jobs SET run_at = now() WHERE queue = ${PUBLISH_QUEUE} AND payload ->> 'videoId' = ${videoId} AND status = 'queued'`);

let t: TestContext;
let owner: UserRow;
let other: UserRow;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.ctx);
  other = await createUser(t.ctx);
});
afterAll(() => t.close());

const edit = (id: string, body: object, as = owner) => call(t, 'PATCH', `/videos/${id}`, { as, body });
const homeIds = async (as?: UserRow) => (await call(t, 'GET', '/videos?sortBy=uploadDate&limit=50', { as })).body.data.data.map((v: { _id: string }) => v._id);
const drain = () => createWorker(t.ctx, memoryLog()).drain();

describe('privacy', () => {
  it('keeps the spec switch: isPublished true is public, false is private, without a value it flips', async () => {
    const v = await storeReadyVideo(t.ctx, owner, { privacy: 'unlisted' });
    const publish = (body?: object) => call(t, 'PATCH', `/videos/${v.id}/publish`, { as: owner, body });
    expect((await publish({ isPublished: true })).body.data.video).toMatchObject({ isPublished: true, privacy: 'public' });
    expect((await publish({ isPublished: false })).body.data.video).toMatchObject({ isPublished: false, privacy: 'private' });
    expect((await publish()).body.data.video).toMatchObject({ isPublished: true, privacy: 'public' });
    expect((await publish()).body.data.video).toMatchObject({ isPublished: false, privacy: 'private' });
  });

  it('shows an unlisted video by its link to anyone, in no list for others, and in its owner\'s lists', async () => {
    const v = await storeReadyVideo(t.ctx, owner, { title: 'Unlisted lake' });
    expect((await edit(v.id, { privacy: 'unlisted' })).body.data.video).toMatchObject({ privacy: 'unlisted', isPublished: false, publishAt: null });
    for (const as of [undefined, other]) {
      expect((await call(t, 'GET', `/videos/${v.id}`, { as })).body.data.video.title).toBe('Unlisted lake');
      expect(await homeIds(as)).not.toContain(v.id);
      expect(JSON.stringify((await call(t, 'GET', `/users/video/${owner.userName}`, { as })).body)).not.toContain(v.id);
      expect(JSON.stringify((await call(t, 'GET', '/videos?query=lake', { as })).body)).not.toContain(v.id);
    }
    expect(await homeIds(owner)).toContain(v.id);
    // A playlist takes only videos its readers could find in lists.
    const playlist = (await call(t, 'POST', '/playlists', { as: other, body: { name: 'Lakes' } })).body.data.playlist._id;
    expectError(await call(t, 'POST', `/playlists/${playlist}/${v.id}`, { as: other }), 404);
  });

  it('hides a private video from everyone but its owner and staff, who open it by its id but never see it listed', async () => {
    const v = await storeReadyVideo(t.ctx, owner);
    await edit(v.id, { privacy: 'private' });
    for (const as of [undefined, other]) expectError(await call(t, 'GET', `/videos/${v.id}`, { as }), 404);
    expect((await call(t, 'GET', `/videos/${v.id}`, { as: owner })).body.data.video.privacy).toBe('private');
    for (const role of ['moderator', 'admin'] as const) {
      const staff = await createUser(t.ctx, { role });
      const video = (await call(t, 'GET', `/videos/${v.id}`, { as: staff })).body.data.video;
      expect(video).toMatchObject({ _id: v.id, privacy: 'private' });
      expect(video.videoFile.url).toMatch(/\/exp-\d+-/);
      expect(await homeIds(staff)).not.toContain(v.id);
    }
  });

  it('refuses bad privacy input with a 400 that changes nothing', async () => {
    const v = await storeReadyVideo(t.ctx, owner);
    const bad: [object, string | RegExp][] = [
      [{ privacy: 'friends' }, 'privacy must be public, unlisted or private'],
      [{ publishAt: 'tomorrow' }, 'publishAt must be an ISO date and time'],
      [{ publishAt: inHours(-1) }, 'The publication time must be in the future'],
      [{ publishAt: inHours(24 * 400) }, 'The publication time must be within a year'],
      [{ privacy: 'public', publishAt: inHours(1) }, 'A scheduled video stays private until its publication time'],
      [{ downloadsEnabled: 'yes' }, 'downloadsEnabled must be true, false, 1 or 0'],
    ];
    for (const [body, message] of bad) expectError(await edit(v.id, body), 400, message);
    expect((await call(t, 'GET', `/videos/${v.id}`, { as: owner })).body.data.video).toMatchObject({ privacy: 'public', publishAt: null, downloadsEnabled: false });
    expect(await publishJobs(t.ctx.db, v.id)).toEqual([]);
    expectError(await edit(v.id, { privacy: 'private' }, other), 403);
  });
});

describe('scheduled publication', () => {
  it('keeps the video private until its time, then publishes it once', async () => {
    // The fan-outs of the videos published above, so the counts below are this schedule's alone.
    await drain();
    const v = await storeReadyVideo(t.ctx, owner, { privacy: 'private', title: 'Scheduled sunrise' });
    const at = inHours(2);
    const video = (await edit(v.id, { publishAt: at })).body.data.video;
    expect(video).toMatchObject({ privacy: 'private', isPublished: false, publishAt: at });
    const [job, ...more] = await publishJobs(t.ctx.db, v.id);
    expect(more).toEqual([]);
    expect(new Date(job!.run_at).toISOString()).toBe(at);

    // Not due yet: the worker leaves it alone.
    expect(await drain()).toBe(0);
    expectError(await call(t, 'GET', `/videos/${v.id}`, { as: other }), 404);

    await timeComes(t.ctx.db, v.id);
    // The publication, then the fan-out telling the channel's subscribers.
    expect(await drain()).toBe(2);
    expect((await call(t, 'GET', `/videos/${v.id}`, { as: other })).body.data.video).toMatchObject({ privacy: 'public', publishAt: null });
    expect(await homeIds(other)).toContain(v.id);
    expect(await drain()).toBe(0);
    expect((await publishJobs(t.ctx.db, v.id)).map((j) => j.status)).toEqual(['done']);
  });

  it('lets a changed or cancelled schedule leave a stale job nothing to do', async () => {
    const v = await storeReadyVideo(t.ctx, owner, { privacy: 'private' });
    const first = inHours(1);
    await edit(v.id, { publishAt: first });
    const second = inHours(5);
    await edit(v.id, { publishAt: second });
    const queued = await publishJobs(t.ctx.db, v.id);
    expect(queued.map((j) => j.payload.publishAt)).toEqual([second]);

    // A job of the first schedule that a worker had already taken runs anyway: it publishes nothing.
    await t.ctx.db.execute(
      sql`INSERT INTO jobs (id, queue, payload, run_at) VALUES (${newId()}, ${PUBLISH_QUEUE}, ${JSON.stringify({ videoId: v.id, publishAt: first })}::jsonb, now())`,
    );
    expect(await drain()).toBe(1);
    expect((await call(t, 'GET', `/videos/${v.id}`, { as: owner })).body.data.video).toMatchObject({ privacy: 'private', publishAt: second });

    // Choosing a privacy cancels the schedule: its job goes, and a late run of it would find nothing.
    await edit(v.id, { privacy: 'unlisted' });
    expect(await publishJobs(t.ctx.db, v.id)).toEqual(expect.not.arrayContaining([expect.objectContaining({ status: 'queued' })]));
    await t.ctx.db.execute(
      sql`INSERT INTO jobs (id, queue, payload, run_at) VALUES (${newId()}, ${PUBLISH_QUEUE}, ${JSON.stringify({ videoId: v.id, publishAt: second })}::jsonb, now())`,
    );
    expect(await drain()).toBe(1);
    expect((await call(t, 'GET', `/videos/${v.id}`, { as: owner })).body.data.video).toMatchObject({ privacy: 'unlisted', publishAt: null });
  });

  it('the publish switch drops a schedule', async () => {
    const v = await storeReadyVideo(t.ctx, owner, { privacy: 'private' });
    await edit(v.id, { publishAt: inHours(3) });
    const res = await call(t, 'PATCH', `/videos/${v.id}/publish`, { as: owner, body: { isPublished: true } });
    expect(res.body.data.video).toMatchObject({ privacy: 'public', publishAt: null });
    expect(await publishJobs(t.ctx.db, v.id)).toEqual([]);
  });

  it('publishes once at its time after a restart in between, with two app instances on one database', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-publish-'));
    const fresh = engine === 'pg' ? await freshDatabase() : undefined;
    await fresh?.database.close();
    try {
      let server = await bootPersistentApp(dataDir, fresh?.url);
      const user = await createUser(server.ctx);
      const viewer = await createUser(server.ctx);
      const v = await storeReadyVideo(server.ctx, user, { privacy: 'private' });
      const at = inHours(1);
      const res = await server.app.inject({ method: 'PATCH', url: `/api/v1/videos/${v.id}`, headers: await bearer(server.ctx, user), payload: { publishAt: at } });
      expect(res.json().data.video.publishAt).toBe(at);
      await server.close();

      server = await bootPersistentApp(dataDir, fresh?.url);
      try {
        const get = async () =>
          server.app.inject({ method: 'GET', url: `/api/v1/videos/${v.id}`, headers: await bearer(server.ctx, viewer) });
        expect((await get()).statusCode).toBe(404);
        expect(await createWorker(server.ctx, memoryLog()).drain()).toBe(0);
        await timeComes(server.ctx.db, v.id);
        // Two workers of the new instance race for it: it runs once (and its fan-out once).
        const counts = await Promise.all([createWorker(server.ctx, memoryLog()).drain(), createWorker(server.ctx, memoryLog()).drain()]);
        expect(counts.reduce((a, b) => a + b)).toBe(2);
        expect((await get()).json().data.video).toMatchObject({ privacy: 'public', isPublished: true });
        expect((await publishJobs(server.ctx.db, v.id)).map((j) => j.status)).toEqual(['done']);
      } finally {
        await server.close();
      }
    } finally {
      await fresh?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('takes privacy and a schedule with the upload', async () => {
    const clip = await readFile(await makeClip(path.join(t.dataDir, 'privacy.mp4'), { width: 320, height: 180, seconds: 1 }));
    const auth = await bearer(t.ctx, owner);
    const upload = (uniqueId: string, fields: Record<string, string>) =>
      postChunk(t.app, auth, { uniqueId, chunkNumber: 0, totalChunks: 1 }, clip, { isLastChunk: 'true', title: 'Uploaded', ...fields });
    const bad = await upload('sched-bad', { publishAt: inHours(-2) });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'The publication time must be in the future']);
    const unlisted = (await upload('unl', { privacy: 'unlisted', downloadsEnabled: 'true' })).json().data.video;
    expect(unlisted).toMatchObject({ privacy: 'unlisted', downloadsEnabled: true, publishAt: null });
    const at = inHours(6);
    const scheduled = (await upload('sched', { publishAt: at })).json().data.video;
    expect(scheduled).toMatchObject({ privacy: 'private', publishAt: at, downloadsEnabled: false });
    expect((await publishJobs(t.ctx.db, scheduled._id)).map((j) => j.payload.publishAt)).toEqual([at]);
    const plain = (await upload('plain', {})).json().data.video;
    expect(plain).toMatchObject({ privacy: 'private', isPublished: false });
  });
});

describe('downloads', () => {
  it('lets viewers download the progressive mp4 only when the owner allows it; playing it inline always works', async () => {
    const v = await storeReadyVideo(t.ctx, owner);
    const get = async (url: string, as?: UserRow) => t.app.inject({ method: 'GET', url, headers: as ? await bearer(t.ctx, as) : {} });
    const file = `/api/v1/videos/video/${v.id}.mp4`;
    const download = `${file}?download=1`;
    expect((await get(file)).headers['content-disposition']).toMatch(/^inline/);
    expect((await get(download, owner)).headers['content-disposition']).toMatch(/^attachment/);
    for (const as of [undefined, other]) {
      const refused = await get(download, as);
      expect([refused.statusCode, refused.json().message]).toEqual([403, 'The owner does not allow downloads of this video']);
    }
    expect((await edit(v.id, { downloadsEnabled: true })).body.data.video.downloadsEnabled).toBe(true);
    for (const as of [undefined, other]) {
      const res = await get(download, as);
      expect([res.statusCode, res.headers['content-disposition']]).toEqual([200, expect.stringMatching(/^attachment/)]);
    }
    expectError(await edit(v.id, { downloadsEnabled: false }, other), 403);
  });
});

it('migrates published videos to public and the others to private', async () => {
  const database = wrapPglite(await PGlite.create({ extensions: pgliteExtensions }));
  try {
    await migrate(database, { before: '0800' });
    const userId = newId();
    await database.db.execute(
      sql`INSERT INTO users (id, full_name, user_name, email, password_hash) VALUES (${userId}, 'Old', ${`old${userId.slice(-6)}`}, ${`old${userId.slice(-6)}@example.com`}, 'x')`,
    );
    const [pub, draft] = [newId(), newId()];
    for (const [id, published] of [[pub, true], [draft, false]] as const) {
      await database.db.execute(sql`INSERT INTO videos (id, owner_id, title, is_published) VALUES (${id}, ${userId}, 'Old', ${published})`);
    }
    await migrate(database);
    const after = await queryRows<{ id: string; privacy: string; publish_at: Date | null; downloads_enabled: boolean }>(
      database.db,
      sql`SELECT id, privacy, publish_at, downloads_enabled FROM videos`,
    );
    expect(new Map(after.map((r) => [r.id, r]))).toEqual(
      new Map([
        [pub, { id: pub, privacy: 'public', publish_at: null, downloads_enabled: false }],
        [draft, { id: draft, privacy: 'private', publish_at: null, downloads_enabled: false }],
      ]),
    );
  } finally {
    await database.close();
  }
});

