import { and, eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { comments, tweets, users, videos } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import { createTweet, createUser, createVideo, freshDatabase } from '../../test/harness.ts';
import { accountVisibleTo } from './content-state.ts';
import { commentShownTo, directlyVisibleTo, publicMediaToken, tweetShownTo, videoListedTo, videoRemovedByModerators, videoVisibleTo, videoVisibility } from './visibility.ts';

// The policy's rules, each read against real rows in a real database: who sees what, per state.
let database: Database;
let drop: () => Promise<void>;
const ids: Record<string, string> = {};
let owner: string;
let stranger: string;

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  const ctx = { db: database.db };
  owner = (await createUser(ctx)).id;
  stranger = (await createUser(ctx)).id;
  const suspended = (await createUser(ctx, { state: 'suspended' })).id;
  const video = async (name: string, over: Parameters<typeof createVideo>[2], by = owner) => (ids[name] = (await createVideo(ctx, { id: by }, over)).id);
  await video('public', {});
  await video('unlisted', { privacy: 'unlisted' });
  await video('private', { privacy: 'private' });
  await video('processing', { status: 'processing' });
  await video('takenDown', { takenDownAt: new Date() });
  await video('bySuspended', {}, suspended);
  await video('takenDownUnlisted', { privacy: 'unlisted', takenDownAt: new Date() });
  await video('takenDownPrivate', { privacy: 'private', takenDownAt: new Date() });
  await video('takenDownProcessing', { status: 'processing', takenDownAt: new Date() });
  await video('takenDownBySuspended', { takenDownAt: new Date() }, suspended);
  const tweet = async (name: string, over: Parameters<typeof createTweet>[2], by = owner) => (ids[name] = (await createTweet(ctx, { id: by }, over)).id);
  await tweet('tweet', {});
  await tweet('heldTweet', { reviewState: 'held' });
  await tweet('takenDownTweet', { takenDownAt: new Date() });
  await tweet('tweetBySuspended', {}, suspended);
  const comment = async (name: string, over: Partial<typeof comments.$inferInsert>, by = stranger) => {
    ids[name] = newId();
    await database.db.insert(comments).values({ id: ids[name], videoId: ids.public, ownerId: by, content: name, ...over });
  };
  await comment('comment', {});
  await comment('heldComment', { reviewState: 'held' });
  await comment('takenDownComment', { takenDownAt: new Date() });
  await comment('commentBySuspended', {}, suspended);
  ids.suspended = suspended;
});

afterAll(async () => {
  await database.close();
  await drop();
});

type Table = typeof videos | typeof tweets | typeof comments;
/** The names (of `ids`) among `names` whose row passes `rule`. */
async function passing(table: Table, names: string[], rule: SQL | undefined): Promise<string[]> {
  const shown: string[] = [];
  for (const name of names) {
    const [row] = await database.db.select({ id: table.id }).from(table).where(and(eq(table.id, ids[name]!), rule));
    if (row) shown.push(name);
  }
  return shown;
}

const VIDEOS = ['public', 'unlisted', 'private', 'processing', 'takenDown', 'bySuspended'];

describe('videos', () => {
  it('a visitor opens public and unlisted ready videos, and lists only public ones', async () => {
    expect(await passing(videos, VIDEOS, videoVisibleTo(null))).toEqual(['public', 'unlisted']);
    expect(await passing(videos, VIDEOS, videoListedTo(null))).toEqual(['public']);
  });

  it('another user is a visitor; the owner sees every one of theirs, whatever its state', async () => {
    expect(await passing(videos, VIDEOS, videoVisibleTo(stranger))).toEqual(['public', 'unlisted']);
    expect(await passing(videos, VIDEOS, videoVisibleTo(owner))).toEqual(['public', 'unlisted', 'private', 'processing', 'takenDown']);
    expect(await passing(videos, VIDEOS, videoListedTo(owner))).toEqual(['public', 'unlisted', 'private', 'processing', 'takenDown']);
  });

  it('staff open private videos too, but not taken-down ones or a suspended account’s', async () => {
    expect(await passing(videos, VIDEOS, videoVisibility(videos, stranger, true))).toEqual(['public', 'unlisted', 'private']);
  });

  it('the public media token exists only while the video is listed to visitors', async () => {
    const tokens = await database.db.select({ id: videos.id, token: publicMediaToken(videos) }).from(videos);
    const withToken = VIDEOS.filter((name) => tokens.find((t) => t.id === ids[name])?.token);
    expect(withToken).toEqual(['public']);
  });

  it('"removed by the moderators" only where a visitor could otherwise open it: not private, unfinished or a suspended account’s', async () => {
    const all = [...VIDEOS, 'takenDownUnlisted', 'takenDownPrivate', 'takenDownProcessing', 'takenDownBySuspended'];
    expect(await passing(videos, all, videoRemovedByModerators(videos))).toEqual(['takenDown', 'takenDownUnlisted']);
  });

  it('the plain check matches the SQL rule for one viewer', () => {
    expect(directlyVisibleTo(true, owner, null)).toBe(true);
    expect(directlyVisibleTo(false, owner, null)).toBe(false);
    expect(directlyVisibleTo(false, owner, stranger)).toBe(false);
    expect(directlyVisibleTo(false, owner, owner)).toBe(true);
  });
});

describe('tweets and comments', () => {
  const TWEETS = ['tweet', 'heldTweet', 'takenDownTweet', 'tweetBySuspended'];
  const COMMENTS = ['comment', 'heldComment', 'takenDownComment', 'commentBySuspended'];

  it('tweets: published and clear for others, all of their own for the owner, all for staff', async () => {
    expect(await passing(tweets, TWEETS, tweetShownTo(null, false))).toEqual(['tweet']);
    expect(await passing(tweets, TWEETS, tweetShownTo(stranger, false))).toEqual(['tweet']);
    expect(await passing(tweets, TWEETS, tweetShownTo(owner, false))).toEqual(['tweet', 'heldTweet', 'takenDownTweet']);
    expect(await passing(tweets, TWEETS, tweetShownTo(stranger, true))).toEqual(TWEETS);
  });

  it('comments: the reviewer also sees held ones; the author sees all of their own', async () => {
    expect(await passing(comments, COMMENTS, commentShownTo(null, false))).toEqual(['comment']);
    expect(await passing(comments, COMMENTS, commentShownTo(owner, true))).toEqual(['comment', 'heldComment']);
    expect(await passing(comments, COMMENTS, commentShownTo(stranger, false))).toEqual(['comment', 'heldComment', 'takenDownComment']);
  });
});

describe('accounts', () => {
  it('a suspended account’s channel is hidden from everyone but itself', async () => {
    const shown = async (viewer: string | null) => {
      const rows = await database.db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`${users.id} IN (${ids.suspended!}::uuid, ${owner}::uuid)`, accountVisibleTo(users.id, viewer)));
      return rows.map((r) => (r.id === owner ? 'active' : 'suspended')).sort();
    };
    expect(await shown(null)).toEqual(['active']);
    expect(await shown(stranger)).toEqual(['active']);
    expect(await shown(ids.suspended!)).toEqual(['active', 'suspended']);
  });
});
