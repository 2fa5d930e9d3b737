import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTION_MAX_LANGUAGES } from '@glimpse/contract';
import { bearer, createTestApp, createUser, createVideo, multipartInject, type TestContext } from '../../../test/harness.ts';
import { call, expectError } from '../../../test/http.ts';
import { injectGetter, keyOf, storeReadyVideo, type Getter } from '../../../test/media.ts';
import type { UserRow } from '../users/users.repository.ts';
import { PLAYLIST_PUBLIC_CACHE, PRIVATE_CACHE, PUBLIC_CACHE } from '../media-links/media-links.ts';

const SRT = '1\n00:00:01,000 --> 00:00:02,500\nHello captions\n\n2\n00:00:03,000 --> 00:00:04,000\nxylophone quartet\n';

describe('captions', () => {
  let t: TestContext;
  let get: Getter;
  let owner: UserRow;
  let other: UserRow;
  beforeAll(async () => {
    t = await createTestApp();
    get = injectGetter(t.app);
    owner = await createUser(t.ctx);
    other = await createUser(t.ctx);
  });
  afterAll(() => t.close());

  async function upload(videoId: string, lang: string, file: string | Buffer, as: UserRow = owner, label = 'English') {
    const form = new FormData();
    form.append('label', label);
    form.append('file', new Blob([file]), 'subs.srt');
    return multipartInject(t.app, { method: 'POST', url: `/api/v1/videos/${videoId}/captions/${lang}`, headers: await bearer(t.ctx, as), form });
  }

  it('the owner uploads an SRT: stored as WebVTT, listed and in the video answer, served like the video media', async () => {
    const v = await storeReadyVideo(t.ctx, owner);
    const res = await upload(v.id, 'en-us', SRT);
    expect(res.statusCode, res.body).toBe(200);
    const [caption] = res.json().data.captions;
    expect(caption).toMatchObject({ lang: 'en-US', label: 'English' });
    expect(caption.url).toMatch(new RegExp(`^/media/videos/${v.id}/pub-${v.mediaToken}/captions/en-US-[0-9a-f]{12}\\.vtt$`));

    const listed = await call(t, 'GET', `/videos/${v.id}/captions`);
    expect(listed.body.data.captions).toEqual([caption]);
    const video = (await call(t, 'GET', `/videos/${v.id}`)).body.data.video;
    expect(video.captions).toEqual([caption]);

    const vtt = await get(caption.url);
    expect(vtt.status).toBe(200);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(vtt.headers['cache-control']).toBe(PUBLIC_CACHE);
    expect(vtt.body.toString()).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello captions\n\n00:00:03.000 --> 00:00:04.000\nxylophone quartet\n');
  });

  it('the master playlist carries a subtitle rendition per caption, revalidated; its playlist names the WebVTT file', async () => {
    const v = await storeReadyVideo(t.ctx, owner);
    const masterUrl = (await call(t, 'GET', `/videos/${v.id}`)).body.data.video.videoFile.url as string;
    const before = await get(masterUrl);
    expect(before.body.toString()).not.toContain('SUBTITLES');
    expect(before.headers['cache-control']).toBe(PLAYLIST_PUBLIC_CACHE);

    await upload(v.id, 'fr', SRT, owner, 'Français "FR"');
    const master = await get(masterUrl);
    const text = master.body.toString();
    const uri = /#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français 'FR'",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,URI="([^"]+)"/.exec(text)?.[1];
    expect(uri, text).toMatch(/^\.\.\/captions\/fr-[0-9a-f]{12}\.m3u8$/);
    expect(text).toContain('#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x240,AUDIO="audio",SUBTITLES="subs"\n240p/index.m3u8');
    expect(master.headers.etag).not.toBe(before.headers.etag);
    expect((await get(masterUrl, { 'if-none-match': String(master.headers.etag) })).status).toBe(304);

    const subUrl = new URL(uri!, `http://x${masterUrl}`).pathname;
    const sub = await get(subUrl);
    expect(sub.status).toBe(200);
    expect(sub.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    const vttName = /\n(fr-[0-9a-f]{12}\.vtt)\n/.exec(sub.body.toString())?.[1];
    expect(sub.body.toString()).toContain('#EXTINF:42.000,');
    const vtt = await get(new URL(vttName!, `http://x${subUrl}`).pathname);
    expect(vtt.body.toString()).toContain('xylophone quartet');

    // Deleted: gone from the master, its playlist and its file.
    expect((await call(t, 'DELETE', `/videos/${v.id}/captions/fr`, { as: owner })).status).toBe(200);
    expect((await get(masterUrl)).body.toString()).not.toContain('SUBTITLES');
    expect((await get(subUrl)).status).toBe(404);
    expect(await t.ctx.storage.exists(keyOf(new URL(vttName!, `http://x${subUrl}`).pathname))).toBe(false);
  });

  it('bad files, tags and labels are a 400 with a clear message and change nothing; too big is a 413', async () => {
    const v = await createVideo(t.ctx, owner);
    expectError(await call(t, 'POST', `/videos/${v.id}/captions/en`, { as: owner, body: { label: 'English', text: 'not captions at all' } }), 400, 'This is not an SRT or WebVTT file (no cue timings found)');
    const bad = await upload(v.id, 'en', '1\n00:00:01,000 --> 00:00:99,000\nx\n');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Line 2: invalid end time "00:00:99,000"');
    expectError(await call(t, 'POST', `/videos/${v.id}/captions/english!`, { as: owner, body: { label: 'English', text: SRT } }), 400, 'Language must be a BCP 47 tag such as en or pt-BR');
    expectError(await call(t, 'POST', `/videos/${v.id}/captions/en`, { as: owner, body: { text: SRT } }), 400, 'Label is required');
    const noFile = new FormData();
    noFile.append('label', 'English');
    const missing = await multipartInject(t.app, { method: 'POST', url: `/api/v1/videos/${v.id}/captions/en`, headers: await bearer(t.ctx, owner), form: noFile });
    expect(missing.json().message).toBe('Send the caption file in the file field (SRT or WebVTT)');
    const big = await upload(v.id, 'en', Buffer.alloc(512 * 1024 + 1, 'a'));
    expect(big.statusCode).toBe(413);
    expect((await call(t, 'GET', `/videos/${v.id}/captions`)).body.data.captions).toEqual([]);
  });

  it('only the owner writes; a hidden video’s captions are refused to others and signed for the owner', async () => {
    const v = await storeReadyVideo(t.ctx, owner, { privacy: 'private' });
    expectError(await call(t, 'POST', `/videos/${v.id}/captions/en`, { body: { label: 'x', text: SRT } }), 401);
    const stranger = await upload(v.id, "en", SRT, other);
    expect(stranger.statusCode).toBe(403);
    expect((await upload(v.id, 'en', SRT)).statusCode).toBe(200);
    expectError(await call(t, 'DELETE', `/videos/${v.id}/captions/en`, { as: other }), 403);
    expectError(await call(t, 'GET', `/videos/${v.id}/captions`, { as: other }), 404, 'Video not found');
    expectError(await call(t, 'GET', `/videos/${v.id}/captions`), 404);
    const [mine] = (await call(t, 'GET', `/videos/${v.id}/captions`, { as: owner })).body.data.captions;
    expect(mine.url).toMatch(new RegExp(`^/media/videos/${v.id}/exp-\\d+-[\\w-]{43}/captions/en-[0-9a-f]{12}\\.vtt$`));
    const signed = await get(mine.url);
    expect(signed.status).toBe(200);
    expect(signed.headers['cache-control']).toBe(PRIVATE_CACHE);
    // The old public token names nothing while the video is not public.
    expect((await get(`/media/videos/${v.id}/pub-${v.mediaToken}/${keyOf(mine.url).split('/').slice(2).join('/')}`)).status).toBe(404);
    expectError(await call(t, 'DELETE', `/videos/${v.id}/captions/de`, { as: owner }), 404, 'No captions in this language');
  });

  it('replacing keeps one file per language; at most the limit of languages', async () => {
    const v = await createVideo(t.ctx, owner);
    const first = (await upload(v.id, 'en', SRT)).json().data.captions[0];
    const second = (await upload(v.id, 'EN', SRT.replace('Hello', 'Howdy'), owner, 'English (CC)')).json().data.captions;
    expect(second).toHaveLength(1);
    expect(second[0].label).toBe('English (CC)');
    expect(await t.ctx.storage.exists(keyOf(first.url))).toBe(false);
    expect(await t.ctx.storage.exists(keyOf(second[0].url))).toBe(true);
    for (let i = 1; i < CAPTION_MAX_LANGUAGES; i++) {
      expect((await call(t, 'POST', `/videos/${v.id}/captions/x${String.fromCharCode(97 + i)}`, { as: owner, body: { label: 'L', text: SRT } })).status).toBe(200);
    }
    expectError(await call(t, 'POST', `/videos/${v.id}/captions/zz`, { as: owner, body: { label: 'L', text: SRT } }), 400, `A video can have captions in at most ${CAPTION_MAX_LANGUAGES} languages`);
    // Replacing an existing language is still allowed at the limit.
    expect((await call(t, 'POST', `/videos/${v.id}/captions/en`, { as: owner, body: { label: 'L', text: SRT } })).status).toBe(200);
  });

  it('deleting the video deletes its captions', async () => {
    const v = await createVideo(t.ctx, owner);
    const [c] = (await upload(v.id, 'en', SRT)).json().data.captions;
    expect((await call(t, 'DELETE', `/videos/${v.id}`, { as: owner })).status).toBe(200);
    expect(await t.ctx.storage.exists(keyOf(c.url))).toBe(false);
  });

  it('search finds caption-only matches, below title matches', async () => {
    const word = 'zanzibarian';
    const inCaptions = await createVideo(t.ctx, owner, { title: 'Harbour walk', description: 'boats' });
    await call(t, 'POST', `/videos/${inCaptions.id}/captions/en`, { as: owner, body: { label: 'English', text: `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nThe ${word} spice market\n` } });
    const inTitle = await createVideo(t.ctx, owner, { title: `The ${word} coast`, description: 'sea' });
    const hidden = await createVideo(t.ctx, owner, { title: 'Private notes', privacy: 'private' });
    await call(t, 'POST', `/videos/${hidden.id}/captions/en`, { as: owner, body: { label: 'English', text: `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${word}\n` } });
    const found = (await call(t, 'GET', `/videos?query=${word}`)).body.data.data.map((x: { _id: string }) => x._id);
    expect(found).toEqual([inTitle.id, inCaptions.id]);
    const byDate = (await call(t, 'GET', `/videos?query=${word}&sortBy=uploadDate`)).body.data.data.map((x: { _id: string }) => x._id);
    expect(byDate).toEqual([inTitle.id, inCaptions.id]);
  });
});
