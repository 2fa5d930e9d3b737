import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, createVideo, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import { createVideoWithThumbnail, publicUrl, signedUrl } from '../../../test/media.ts';
import type { UserRow } from '../users/users.repository.ts';

let t: TestContext;
let alice: UserRow;
let bob: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t.ctx, { fullName: 'Alice' });
  bob = await createUser(t.ctx, { fullName: 'Bob' });
});
afterAll(() => t.close());

const create = (as: UserRow, body: object) => call(t, 'POST', '/playlists', { as, body });
const playlistState = async (id: string) =>
  rows<{ name: string; video_id: string | null }>(
    t,
    sql`SELECT p.name, pv.video_id FROM playlists p LEFT JOIN playlist_videos pv ON pv.playlist_id = p.id
        WHERE p.id = ${id} ORDER BY pv.position`,
  );

describe('POST /playlists', () => {
  it('answers 401 with the spec message, even for bad input', async () => {
    expectError(await call(t, 'POST', '/playlists', { body: { name: 'x' } }), 401, 'Please login to create a playlist');
    expectError(await call(t, 'POST', '/playlists', { body: {} }), 401, 'Please login to create a playlist');
  });

  it('rejects a blank or over-long name and unknown or hidden videos; creates nothing', async () => {
    const hidden = await createVideo(t.ctx, alice, { privacy: 'private' });
    const before = await rows(t, sql`SELECT id FROM playlists`);
    expectError(await create(bob, { name: '  ' }), 400, 'Playlist name is required');
    expectError(await create(bob, {}), 400, 'Playlist name is required');
    expectError(await create(bob, { name: 'x'.repeat(101) }), 400, /at most 100/);
    expectError(await create(bob, { name: 'ok', videoId: 'nope' }), 400, 'Invalid id');
    expectError(await create(bob, { name: 'ok', videoId: MISSING_ID }), 404, 'Video not found');
    expectError(await create(bob, { name: 'ok', videoId: hidden.id }), 404, 'Video not found');
    expect(await rows(t, sql`SELECT id FROM playlists`)).toEqual(before);
  });

  it('creates an empty playlist, or one holding the given video', async () => {
    const empty = await create(bob, { name: ' Later ' });
    expect(empty.status).toBe(201);
    expect(empty.body).toMatchObject({ message: 'Playlist created successfully' });
    expect(empty.body.data.playlist).toMatchObject({
      name: 'Later',
      description: '',
      noOfVideos: 0,
      videoId: null,
      thumbnail: null,
      videos: [],
      videoStatus: false,
      owner: { _id: bob.id, userName: bob.userName, fullName: 'Bob' },
    });
    const video = await createVideoWithThumbnail(t.ctx, alice);
    const withVideo = await create(bob, { name: 'Music', videoId: video.id, description: 'tunes' });
    expect(withVideo.status).toBe(201);
    expect(withVideo.body.data.playlist).toMatchObject({
      description: 'tunes',
      noOfVideos: 1,
      videoId: video.id,
      thumbnail: { url: publicUrl(video, 'thumb.jpg') },
      videos: [{ _id: video.id, owner: { _id: alice.id } }],
    });
  });
});

describe('GET /playlists and /playlists/{id}', () => {
  let list: string;
  let first: string;
  let hidden: string;
  let last: string;
  let owner: UserRow;
  let firstToken: string;

  beforeAll(async () => {
    owner = await createUser(t.ctx, { userName: 'curator' });
    hidden = (await createVideoWithThumbnail(t.ctx, owner, { privacy: 'private' })).id;
    ({ id: first, mediaToken: firstToken } = await createVideoWithThumbnail(t.ctx, alice));
    last = (await createVideo(t.ctx, alice)).id;
    list = (await create(owner, { name: 'Mix', videoId: hidden })).body.data.playlist._id;
    await call(t, 'POST', `/playlists/${list}/${first}`, { as: owner });
    await call(t, 'POST', `/playlists/${list}/${last}`, { as: owner });
    await create(owner, { name: 'Empty' });
  });

  it('answers 401 for an anonymous own list and 404 for an unknown channel', async () => {
    expectError(await call(t, 'GET', '/playlists'), 401, 'Please login to view playlists');
    expectError(await call(t, 'GET', '/playlists?userName=nobody-here'), 404, 'Channel not found');
    expectError(await call(t, 'GET', '/playlists?userName=curator&videoId=nope'), 400, 'Invalid id');
  });

  it('lists a channel’s playlists for anyone, counting only videos the viewer may see', async () => {
    const res = await call(t, 'GET', `/playlists?userName=@curator&videoId=${first}`);
    expect(res.status).toBe(200);
    const { playlists } = res.body.data;
    expect(playlists.map((p: { name: string }) => p.name)).toEqual(['Empty', 'Mix']);
    expect(playlists[1]).toMatchObject({ noOfVideos: 2, videoId: first, thumbnail: { url: publicUrl({ id: first, mediaToken: firstToken }, 'thumb.jpg') }, videoStatus: true });
    expect(playlists[0]).toMatchObject({ noOfVideos: 0, videoId: null, videoStatus: false });
  });

  it('lists the viewer’s own playlists without userName, including their unpublished videos', async () => {
    const res = await call(t, 'GET', `/playlists?videoId=${last}`, { as: owner });
    const mix = res.body.data.playlists.find((p: { name: string }) => p.name === 'Mix');
    // The owner's unpublished video: a signed link only they get.
    expect(mix).toMatchObject({ noOfVideos: 3, videoId: hidden, thumbnail: { url: expect.stringMatching(signedUrl(hidden, 'thumb.jpg')) }, videoStatus: true });
  });

  it('answers one playlist with its visible videos in order', async () => {
    const res = await call(t, 'GET', `/playlists/${list}`);
    expect(res.status).toBe(200);
    expect(res.body.data.playlist.videos.map((v: { _id: string }) => v._id)).toEqual([first, last]);
    expect(res.body.data.playlist).toMatchObject({ name: 'Mix', noOfVideos: 2, videoId: first });
    expectError(await call(t, 'GET', `/playlists/${MISSING_ID}`), 404, 'Playlist not found');
    expectError(await call(t, 'GET', `/playlists/nope`), 400, 'Invalid id');
  });
});

describe('PATCH and DELETE /playlists/{id}', () => {
  it('answers 401, 404, 403 and 400 without changing the playlist', async () => {
    const id = (await create(bob, { name: 'Mine' })).body.data.playlist._id;
    expectError(await call(t, 'PATCH', `/playlists/${id}`, { body: { name: 'x' } }), 401);
    expectError(await call(t, 'PATCH', `/playlists/${MISSING_ID}`, { as: bob, body: { name: 'x' } }), 404, 'Playlist not found');
    expectError(await call(t, 'PATCH', `/playlists/${id}`, { as: alice, body: { name: 'x' } }), 403);
    expectError(await call(t, 'PATCH', `/playlists/${id}`, { as: bob, body: { name: ' ' } }), 400, 'Playlist name is required');
    expectError(await call(t, 'DELETE', `/playlists/${id}`), 401);
    expectError(await call(t, 'DELETE', `/playlists/${MISSING_ID}`, { as: bob }), 404);
    expectError(await call(t, 'DELETE', `/playlists/${id}`, { as: alice }), 403);
    expect(await playlistState(id)).toEqual([{ name: 'Mine', video_id: null }]);
  });

  it('renames and deletes the owner’s playlist', async () => {
    const id = (await create(bob, { name: 'Old' })).body.data.playlist._id;
    const renamed = await call(t, 'PATCH', `/playlists/${id}`, { as: bob, body: { name: 'New' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ message: 'Playlist updated successfully', data: { playlist: { _id: id, name: 'New' } } });
    const deleted = await call(t, 'DELETE', `/playlists/${id}`, { as: bob });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ message: 'Playlist deleted successfully', data: { _id: id } });
    expect(await playlistState(id)).toEqual([]);
  });
});

describe('POST and DELETE /playlists/{playlistId}/{videoId}', () => {
  let id: string;
  let video: string;
  beforeAll(async () => {
    id = (await create(bob, { name: 'Queue' })).body.data.playlist._id;
    video = (await createVideo(t.ctx, alice)).id;
  });

  it('answers 401, 404, 403, 409 and leaves the playlist unchanged', async () => {
    const hidden = (await createVideo(t.ctx, alice, { privacy: 'private' })).id;
    expectError(await call(t, 'POST', `/playlists/${id}/${video}`), 401);
    expectError(await call(t, 'POST', `/playlists/${MISSING_ID}/${video}`, { as: bob }), 404, 'Playlist not found');
    expectError(await call(t, 'POST', `/playlists/${id}/${video}`, { as: alice }), 403);
    expectError(await call(t, 'POST', `/playlists/${id}/${MISSING_ID}`, { as: bob }), 404, 'Video not found');
    expectError(await call(t, 'POST', `/playlists/${id}/${hidden}`, { as: bob }), 404, 'Video not found');
    expectError(await call(t, 'POST', `/playlists/${id}/nope`, { as: bob }), 400, 'Invalid id');
    expectError(await call(t, 'DELETE', `/playlists/${id}/${video}`, { as: bob }), 404, 'Video is not in this playlist');
    expect(await playlistState(id)).toEqual([{ name: 'Queue', video_id: null }]);

    expect((await call(t, 'POST', `/playlists/${id}/${video}`, { as: bob })).status).toBe(200);
    expectError(await call(t, 'POST', `/playlists/${id}/${video}`, { as: bob }), 409, 'Video is already in this playlist');
    expectError(await call(t, 'DELETE', `/playlists/${id}/${video}`, { as: alice }), 403);
    expect(await playlistState(id)).toEqual([{ name: 'Queue', video_id: video }]);
  });

  it('appends and removes videos, answering the updated playlist', async () => {
    const second = (await createVideo(t.ctx, alice)).id;
    const added = await call(t, 'POST', `/playlists/${id}/${second}`, { as: bob });
    expect(added.body).toMatchObject({ message: 'Video added to playlist successfully', data: { playlist: { noOfVideos: 2 } } });
    expect(added.body.data.playlist.videos.map((v: { _id: string }) => v._id)).toEqual([video, second]);
    const removed = await call(t, 'DELETE', `/playlists/${id}/${video}`, { as: bob });
    expect(removed.body).toMatchObject({ message: 'Video removed from playlist successfully', data: { playlist: { noOfVideos: 1, videoId: second } } });
  });
});
