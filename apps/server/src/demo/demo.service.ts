import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CHUNK_BYTES, mailableTypes, type VideoResult } from '@glimpse/contract';
import { buildApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { createWorker } from '../worker.ts';
import { newId } from '../lib/ids.ts';
import { hashPassword } from '../identity/passwords.ts';
import { TRANSCODE_QUEUE } from '../modules/transcode/queue.ts';
import { UsersRepository, type UserRow } from '../modules/users/users.repository.ts';
import { generatedPicture, gradientCover, initialsAvatar, titledClip } from './demo-media.ts';

export const DEMO_PASSWORD = 'glimpse-demo';

const CHANNELS = [
  { fullName: 'Ava Lindqvist', userName: 'ava', hue: 200 },
  { fullName: 'Kofi Mensah', userName: 'kofi', hue: 30 },
  { fullName: 'Mei Tanaka', userName: 'mei', hue: 320 },
  { fullName: 'Diego Ramos', userName: 'diego', hue: 120 },
] as const;

/**
 * Title, channel (index above), length, how many people watched it, and the generated picture
 * and tone that make each clip distinct: lavfi sources in the channel's colours, titles drawn in.
 */
export const DEMO_VIDEOS = [
  { by: 0, seconds: 34, views: 1240, tone: 330, source: 'gradients=c0=#0b3d2e:c1=#1fd1a5:c2=#6a3fd8:nb_colors=3:speed=0.02', title: 'Northern lights over the fjord', description: 'A quiet night, a camera on a rock and the sky doing its thing.\n\n0:00 Dusk\n0:11 First glow\n0:22 The big show' },
  { by: 1, seconds: 26, views: 312, tone: 440, source: 'testsrc2', filter: 'hue=h=20:s=1.6', title: 'Street food in Accra: the full tour', description: 'Kelewele, waakye and the best roadside grill I know.' },
  { by: 2, seconds: 20, views: 87, tone: 520, source: 'cellauto=rule=110', filter: 'negate', title: 'Sketching a rainy Kyoto street', description: 'Pencil first, then ink, then far too much water.' },
  { by: 3, seconds: 15, views: 9, tone: 600, source: 'smptehdbars', title: 'Fixing a bike chain in a minute', description: 'All you need is a chain tool and a little patience.' },
  { by: 0, seconds: 12, views: 530, tone: 370, source: 'mandelbrot', title: 'Morning swim, cold water', description: 'Four degrees. Worth it.' },
  { by: 1, seconds: 18, views: 46, tone: 480, source: 'gradients=c0=#f97316:c1=#facc15:c2=#dc2626:type=radial:nb_colors=3:speed=0.03', title: 'Five-minute jollof (well, eighteen seconds)', description: 'The sped-up version of a weeknight classic.' },
  { by: 2, seconds: 8, views: 158, tone: 660, source: 'life=mold=10:ratio=0.12:life_color=#f0abfc:death_color=#1e1b4b:mold_color=#7c3aed', title: 'Ink brush basics', description: 'Pressure, speed and one confident stroke.' },
  { by: 3, seconds: 36, views: 2048, tone: 290, source: 'gradients=c0=#1e3a8a:c1=#f59e0b:type=linear:speed=0.01', title: 'Sunset ride along the coast', description: 'Thirty kilometres of coastline at golden hour.\n\n0:00 Leaving town\n0:12 The cliffs\n0:24 Golden hour' },
  { by: 1, seconds: 10, views: 23, tone: 392, source: 'zoneplate=kx2=320:ky2=180', title: '100 % organic moiré', description: "A test pattern that looks like a vinyl record. Don't stare too long." },
] as const;

const TWEETS = [
  { text: 'Clear skies tonight, heading out with the tripod.', picture: 'mandelbrot' },
  { text: 'New video is up! Thanks for all the kind comments last week.' },
  { text: 'Which street food should I try next? Suggestions welcome.', picture: 'gradients=c0=#f97316:c1=#dc2626:type=radial' },
  { text: 'Rainy days are the best drawing days.', picture: 'cellauto=rule=30' },
  { text: 'Reminder: oil your chain. Your future self will thank you.' },
  { text: 'Colour bars are underrated art.', picture: 'smptehdbars' },
] as const;
const COMMENTS = [
  'This is beautiful!',
  'How long did this take you?',
  'Watched it three times already.',
  'The colours in this one are unreal.',
  'Saving this for the weekend.',
  'Which camera do you use?',
];
const REPLIES = ['Thank you so much!', 'About a week, start to finish.', 'Glad you enjoyed it!', 'Same here, honestly.', 'An old phone and a lot of luck.'];

export class DemoRefusedError extends Error {}

/**
 * The context the seed's worker transcodes with: every rung at x264's `veryfast` preset. The demo's
 * pictures are generated test patterns; the defaults' slower presets (tuned on real footage,
 * bench/results/transcode.md) took more than half of the seed's time (README).
 */
function demoTranscodes(ctx: AppContext): AppContext {
  const { ladder } = ctx.config.media;
  const fast = { ...ladder, rungs: ladder.rungs.map((r) => ({ ...r, preset: 'veryfast' })) };
  return { ...ctx, config: { ...ctx.config, media: { ...ctx.config.media, ladder: fast } } };
}

export interface DemoOptions {
  /** How many of the demo videos to make (all by default), and a cap on their length (tests). */
  videos?: number;
  maxSeconds?: number;
  /** A cap on each video's anonymous views (tests); the list's varied counts otherwise. */
  maxViews?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface DemoResult {
  logins: { email: string; password: string; fullName: string }[];
  videos: number;
  /** False when the media engine could not draw titles into the pictures (no drawtext or no font). */
  titled: boolean;
}

/**
 * Fills an EMPTY instance with channels, videos (generated, uploaded through the chunked upload
 * API and transcoded by the real pipeline), tweets, comments with replies, reactions,
 * subscriptions and playlists, so that a newcomer's home page is alive.
 */
export async function seedDemo(ctx: AppContext, opts: DemoOptions = {}): Promise<DemoResult> {
  const log = opts.log ?? (() => {});
  const users = new UsersRepository(ctx.db);
  if (await users.any()) {
    throw new DemoRefusedError('This instance already has accounts, so the demo content was not added (it only goes into an empty instance).');
  }
  const app = await buildApp(ctx);
  await app.ready();
  const work = await mkdtemp(path.join(ctx.config.dataDir, 'demo-'));
  try {
    const api = new DemoApi(app, ctx);
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    log('Creating channels...');
    const channels: UserRow[] = [];
    for (const c of CHANNELS) {
      const user = await users.insert({
        id: newId(),
        fullName: c.fullName,
        userName: c.userName,
        email: `${c.userName}@demo.glimpse.test`,
        passwordHash,
        emailVerifiedAt: new Date(),
      });
      channels.push(user);
      // Demo addresses reach no one: the seeded activity (and any later) is not mailed to them.
      await api.call(user, 'PATCH', '/notifications/settings', Object.fromEntries(mailableTypes.map((type) => [type, 'off'])));
      await api.image(user, 'avatar', await initialsAvatar(c.fullName, c.hue));
      await api.image(user, 'cover-image', await gradientCover(c.hue));
    }

    const specs = DEMO_VIDEOS.slice(0, opts.videos ?? DEMO_VIDEOS.length);
    const videoIds: { id: string; owner: UserRow }[] = [];
    let titled = true;
    for (const [i, spec] of specs.entries()) {
      log(`Uploading video ${i + 1}/${specs.length}: ${spec.title}`);
      const file = path.join(work, `video-${i}.mp4`);
      const drawn = await titledClip(ctx.media.engine, file, { ...spec, seconds: Math.min(spec.seconds, opts.maxSeconds ?? Infinity) });
      if (!drawn && titled) log('The media engine cannot draw text: the demo videos have no titles in the picture.');
      titled &&= drawn;
      const owner = channels[spec.by]!;
      videoIds.push({ id: await api.upload(owner, await readFile(file), spec.title, spec.description), owner });
    }

    let done = 0;
    const worker = createWorker(demoTranscodes(ctx), {
      // Only transcodes: the drain also runs other queues' jobs (the uploads' events).
      info: (obj, msg) => {
        if (msg === 'job done' && (obj as { queue?: string }).queue === TRANSCODE_QUEUE) log(`Transcoded ${++done}/${specs.length}`);
      },
      error: (obj, msg) => log(`${msg}: ${JSON.stringify(obj)}`),
    });
    log(`Transcoding ${specs.length} videos...`);
    await worker.drain();
    for (const v of videoIds) await api.call(v.owner, 'PATCH', `/videos/${v.id}/publish`, { isPublished: true });

    log('Adding tweets, comments, likes, views, subscriptions and playlists...');
    for (const [i, tweet] of TWEETS.entries()) {
      const author = channels[i % channels.length]!;
      const form = new FormData();
      form.append('content', tweet.text);
      if ('picture' in tweet) {
        const png = await generatedPicture(ctx.media.engine, path.join(work, `tweet-${i}.png`), tweet.picture);
        form.append('image', new Blob([png], { type: 'image/png' }), 'picture.png');
      }
      const { _id } = await api.call(author, 'POST', '/tweets', form);
      const reader = channels[(i + 1) % channels.length]!;
      await api.call(reader, 'POST', `/likes/tweet/${_id}/like`);
      if (i % 2 === 0) await api.call(reader, 'POST', `/comments/tweet/${_id}`, { content: COMMENTS[i % COMMENTS.length] });
    }
    for (const [i, v] of videoIds.entries()) {
      const others = channels.filter((c) => c.id !== v.owner.id);
      for (const [j, viewer] of others.entries()) {
        await api.call(viewer, 'POST', `/videos/${v.id}/views`, { position: 3 });
        await api.call(viewer, 'POST', `/likes/video/${v.id}/${(i + j) % 4 === 3 ? 'dislike' : 'like'}`);
      }
      // Visitors: one view per address, as the counter allows.
      const visitors = Math.min(specs[i]!.views, opts.maxViews ?? Infinity);
      for (let n = 0; n < visitors; n++) await api.anonymousView(v.id, `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);
      // A thread: a question answered by the owner and a follow-up, and a second comment on its own.
      const comment = await api.call(others[0]!, 'POST', `/comments/video/${v.id}`, { content: COMMENTS[i % COMMENTS.length] });
      await api.call(others[1]!, 'POST', `/comments/video/${v.id}`, { content: COMMENTS[(i + 1) % COMMENTS.length] });
      await api.call(v.owner, 'POST', `/comments/video/${v.id}/${comment._id}`, { content: REPLIES[i % REPLIES.length] });
      await api.call(others[2]!, 'POST', `/comments/video/${v.id}/${comment._id}`, { content: REPLIES[(i + 3) % REPLIES.length] });
      await api.call(others[2]!, 'POST', `/likes/comment/${comment._id}/like`);
      if (i % 3 === 0) await api.call(others[1]!, 'POST', `/comments/video/${v.id}`, { content: COMMENTS[(i + 4) % COMMENTS.length] });
    }
    for (const [i, channel] of channels.entries()) {
      for (const k of [1, 2]) await api.call(channel, 'POST', `/subscriptions/toggle/${channels[(i + k) % channels.length]!.id}`);
      const picks = videoIds.filter((v) => v.owner.id !== channel.id).slice(0, 3);
      if (picks.length === 0) continue;
      const { playlist } = await api.call(channel, 'POST', '/playlists', { name: `${channel.fullName.split(' ')[0]}'s favourites`, videoId: picks[0]!.id });
      for (const v of picks.slice(1)) await api.call(channel, 'POST', `/playlists/${playlist._id}/${v.id}`);
      // The channel's own videos, as a series.
      const own = videoIds.filter((v) => v.owner.id === channel.id);
      if (own.length < 2) continue;
      const series = await api.call(channel, 'POST', '/playlists', { name: 'Best of the channel', videoId: own[0]!.id });
      for (const v of own.slice(1)) await api.call(channel, 'POST', `/playlists/${series.playlist._id}/${v.id}`);
    }
    return {
      logins: channels.map((c) => ({ email: c.email, password: DEMO_PASSWORD, fullName: c.fullName })),
      videos: videoIds.length,
      titled,
    };
  } finally {
    await app.close();
    await rm(work, { recursive: true, force: true });
  }
}

/** The real API, called in-process as each demo user (so every rule and counter applies). */
class DemoApi {
  constructor(
    private readonly app: FastifyInstance,
    private readonly ctx: AppContext,
  ) {}

  async call(as: UserRow, method: 'POST' | 'PATCH', url: string, body?: object) {
    const authorization = `Bearer ${await this.ctx.tokens.sign({ id: as.id, userName: as.userName })}`;
    const res = await this.app.inject({ method, url: `/api/v1${url}`, headers: { authorization }, payload: body as never });
    if (res.statusCode >= 300) throw new Error(`Demo seed: ${method} ${url} answered ${res.statusCode} ${res.body}`);
    return res.json().data;
  }

  /** A logged-out view from `ip` (the counter keeps one per viewer per hour). */
  async anonymousView(videoId: string, ip: string): Promise<void> {
    const res = await this.app.inject({ method: 'POST', url: `/api/v1/videos/${videoId}/views`, remoteAddress: ip, payload: { position: 1 } });
    if (res.statusCode >= 300) throw new Error(`Demo seed: anonymous view answered ${res.statusCode} ${res.body}`);
  }

  image(as: UserRow, kind: 'avatar' | 'cover-image', png: Buffer) {
    const form = new FormData();
    form.append('image', new Blob([png], { type: 'image/png' }), `${kind}.png`);
    return this.call(as, 'PATCH', `/users/${kind}`, form);
  }

  /** Sends the file in 3 MB chunks, as the web app does; returns the new video's id. */
  async upload(as: UserRow, file: Buffer, title: string, description: string): Promise<string> {
    const uniqueId = newId();
    const total = Math.max(1, Math.ceil(file.length / CHUNK_BYTES));
    let created: VideoResult | undefined;
    for (let i = 0; i < total; i++) {
      const form = new FormData();
      const last = i === total - 1;
      if (last) {
        form.append('isLastChunk', 'true');
        form.append('title', title);
        form.append('description', description);
      }
      form.append('video', new Blob([file.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES)], { type: 'video/mp4' }), 'video.mp4');
      created = await this.call(as, 'POST', `/videos?uniqueId=${uniqueId}&chunkNumber=${i}&totalChunks=${total}`, form);
    }
    return created!.video._id;
  }
}
