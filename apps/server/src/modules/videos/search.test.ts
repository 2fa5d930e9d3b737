/**
 * Video search relevance and typo correction (ADR 016): title above description, phrase above
 * scattered words, popularity then recency on ties; misspelled words corrected against the words
 * of the catalogue (search_words, kept by migration 1000's triggers).
 */
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteExtensions, queryRows, wrapPglite } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { videoCaptions, videos } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { SearchRepository } from './search.repository.ts';
import { bearer, createTestApp, createUser, createVideo, type TestContext } from '../../../test/harness.ts';

let t: TestContext;
let owner: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.ctx);
});
afterAll(() => t.close());

const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
const search = async (query: string, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/videos?query=${encodeURIComponent(query)}`, headers });
  expect(res.statusCode).toBe(200);
  return (res.json().data.data as { _id: string }[]).map((v) => v._id);
};
const video = async (over: Parameters<typeof createVideo>[2]) => (await createVideo(t.ctx, owner, over)).id;
const words = async (...w: string[]) =>
  (await queryRows<{ word: string }>(t.ctx.db, sql`SELECT word FROM search_words WHERE word = ANY(string_to_array(${w.join(' ')}, ' ')) ORDER BY word`)).map((r) => r.word);

describe('search relevance', () => {
  it('ranks a title match above a description match, whatever their views', async () => {
    const inDescription = await video({ title: 'Evening walk', description: 'a marmalade recipe from grandmother', views: 90_000 });
    const inTitle = await video({ title: 'Marmalade at home', description: 'an evening in the kitchen', views: 3 });
    expect(await search('marmalade')).toEqual([inTitle, inDescription]);
  });

  it('ranks the exact phrase above the same words scattered', async () => {
    const scattered = await video({ title: 'Harbour lights and a quiet sailboat', description: 'boats', views: 90_000 });
    const phrase = await video({ title: 'Quiet harbour at dawn', description: 'lights', views: 3 });
    expect(await search('quiet harbour')).toEqual([phrase, scattered]);
  });

  it('breaks ties by popularity, then by recency', async () => {
    const same = { title: 'Origami crane folding', description: 'paper' };
    const popular = await video({ ...same, views: 5000, createdAt: ago(300) });
    const recent = await video({ ...same, views: 40, createdAt: ago(1) });
    const older = await video({ ...same, views: 40, createdAt: ago(30) });
    expect(await search('origami crane')).toEqual([popular, recent, older]);
  });

  it('never lists private, unlisted, unfinished or taken-down videos, except to their owner', async () => {
    const shown = await video({ title: 'Zeppelin history' });
    const hidden = [
      await video({ title: 'Zeppelin private', privacy: 'private' }),
      await video({ title: 'Zeppelin unlisted', privacy: 'unlisted' }),
      await video({ title: 'Zeppelin processing', status: 'processing' }),
      await video({ title: 'Zeppelin removed', takenDownAt: new Date() }),
    ];
    expect(await search('zeppelin')).toEqual([shown]);
    expect(await search('zeplin')).toEqual([shown]);
    const own = await search('zeppelin', await bearer(t.ctx, owner));
    expect(own).toEqual(expect.arrayContaining([shown, hidden[0], hidden[1], hidden[2]]));
  });
});

describe('a query of stop words only', () => {
  it('finds the titles holding those words as typed, the most viewed first; words as typed, not inside others', async () => {
    const popular = await video({ title: 'The lighthouse keeper', views: 900 });
    const middle = await video({ title: 'Tea by the river', views: 50 });
    const quiet = await video({ title: 'Where THE wild ferns grow', views: 2 });
    await video({ title: 'Theatre rehearsal', description: 'the whole cast', views: 5000 });
    await video({ title: 'Another mother goose', views: 4000 });
    await video({ title: 'The hidden draft', privacy: 'private' });
    // English full text drops "the" altogether: these found nothing.
    expect(await search('the')).toEqual([popular, middle, quiet]);
    expect(await search('  THE ')).toEqual([popular, middle, quiet]);
    const hamlet = await video({ title: 'To be or not to be', views: 1 });
    expect(await search('to be or not to be')).toEqual([hamlet]);
    expect(await search('"by the"')).toEqual([middle]);
    // Sorted another way, the same videos.
    const byDate = await t.app.inject({ method: 'GET', url: '/api/v1/videos?query=the&sortBy=uploadDate' });
    expect((byDate.json().data.data as { _id: string }[]).map((v) => v._id)).toEqual([quiet, middle, popular]);
  });

  it('leaves a query with any other word to full text, stop words and all', async () => {
    const keeper = await video({ title: 'A keeper of bees', views: 1 });
    expect(await search('the keeper')).toEqual(expect.arrayContaining([keeper]));
    expect(await search('the keepers')).toEqual(expect.arrayContaining([keeper]));
  });
});

describe('typo tolerance', () => {
  it('corrects a misspelled word to a catalogue word, in titles and descriptions alike', async () => {
    const titled = await video({ title: 'Kaleidoscope tutorial', views: 10 });
    const described = await video({ title: 'Toy review', description: 'a cardboard kaleidoscope', views: 10 });
    expect(await search('kaleidoscpe')).toEqual([titled, described]);
    expect(await search('cardbord kaleidoscope')).toEqual([described]);
  });

  it('keeps the words as typed: a word only in captions still finds its video', async () => {
    const v = await video({ title: 'Lecture nine', description: 'physics' });
    await t.ctx.db.insert(videoCaptions).values({ videoId: v, lang: 'en', label: 'English', storageKey: `videos/${v}/captions/en.vtt`, bytes: 10, body: 'the quasiparticle appears' });
    expect(await words('quasiparticle')).toEqual([]);
    expect(await search('quasiparticle')).toEqual([v]);
  });

  it('learns the words of new and edited videos', async () => {
    const v = await video({ title: 'Untitled', description: 'nothing yet' });
    expect(await words('untitled', 'nothing')).toEqual(['nothing', 'untitled']);
    await t.ctx.db.update(videos).set({ title: 'Watercolour basics', description: 'brushes and pigments' }).where(eq(videos.id, v));
    expect(await words('watercolour', 'brushes', 'pigments')).toEqual(['brushes', 'pigments', 'watercolour']);
    expect(await search('watercolur pigmnts')).toEqual([v]);
  });

  it('reuses the corrections of a word list for a while instead of probing for each search', async () => {
    await video({ title: 'Marionette workshop' });
    const repo = new SearchRepository(t.ctx.db);
    expect(await repo.corrected('Marionete')).toBe('marionette');
    // The catalogue forgets the word: the kept correction still answers; a list never asked is probed.
    await t.ctx.db.execute(sql`DELETE FROM search_words WHERE word = 'marionette'`);
    expect(await repo.corrected('marionete')).toBe('marionette');
    expect(await repo.corrected('marionete workshp')).toBe('marionete workshop');
    expect(await new SearchRepository(t.ctx.db).corrected('marionete')).toBeUndefined();
  });

  it('leaves short words and words with no near catalogue word as typed', async () => {
    expect(await search('xqzvbnm')).toEqual([]);
    expect(await search('wtr')).toEqual([]);
  });
});

it('migration 1000 fills the word table from the videos already there', async () => {
  const database = wrapPglite(await PGlite.create({ extensions: pgliteExtensions }));
  try {
    await migrate(database, { before: '1000' });
    const userId = newId();
    await database.db.execute(
      sql`INSERT INTO users (id, full_name, user_name, email, password_hash) VALUES (${userId}, 'Old', ${`old${userId.slice(-6)}`}, ${`old${userId.slice(-6)}@example.com`}, 'x')`,
    );
    await database.db.execute(sql`INSERT INTO videos (id, owner_id, title, description) VALUES (${newId()}, ${userId}, 'Gondola ride', 'Venice at 6am')`);
    await migrate(database);
    const rows = await queryRows<{ word: string }>(database.db, sql`SELECT word FROM search_words ORDER BY word`);
    expect(rows.map((r) => r.word)).toEqual(['gondola', 'ride', 'venice']);
  } finally {
    await database.close();
  }
}, 180_000); // every migration on a fresh PGlite: slow on a busy machine
