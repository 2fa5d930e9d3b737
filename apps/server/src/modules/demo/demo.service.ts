import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CHUNK_BYTES } from '@glimpse/contract';
import { buildApp } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import { createWorker } from '../../jobs/create-worker.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword } from '../auth/passwords.ts';
import { UsersRepository, type UserRow } from '../users/users.repository.ts';
import { gradientCover, initialsAvatar, testPatternClip } from './demo-media.ts';

export const DEMO_PASSWORD = 'glimpse-demo';

const CHANNELS = [
  { fullName: 'Ava Lindqvist', userName: 'ava', hue: 200 },
  { fullName: 'Kofi Mensah', userName: 'kofi', hue: 30 },
  { fullName: 'Mei Tanaka', userName: 'mei', hue: 320 },
  { fullName: 'Diego Ramos', userName: 'diego', hue: 120 },
] as const;

/** Title, channel (index above), length and the tint/tone that make each clip distinct. */
const VIDEOS = [
  { by: 0, seconds: 24, hue: 180, tone: 330, title: 'Northern lights over the fjord', description: 'A quiet night, a camera on a rock and the sky doing its thing.' },
  { by: 1, seconds: 40, hue: 20, tone: 440, title: 'Street food in Accra: the full tour', description: 'Kelewele, waakye and the best roadside grill I know.' },
  { by: 2, seconds: 30, hue: 280, tone: 520, title: 'Sketching a rainy Kyoto street', description: 'Pencil first, then ink, then far too much water.' },
  { by: 3, seconds: 15, hue: 90, tone: 600, title: 'Fixing a bike chain in a minute', description: 'All you need is a chain tool and a little patience.' },
  { by: 0, seconds: 12, hue: 220, tone: 370, title: 'Morning swim, cold water', description: 'Four degrees. Worth it.' },
  { by: 1, seconds: 18, hue: 50, tone: 480, title: 'Five-minute jollof (well, eighteen seconds)', description: 'The sped-up version of a weeknight classic.' },
  { by: 2, seconds: 8, hue: 320, tone: 660, title: 'Ink brush basics', description: 'Pressure, speed and one confident stroke.' },
  { by: 3, seconds: 35, hue: 140, tone: 290, title: 'Sunset ride along the coast', description: 'Thirty kilometres of coastline at golden hour.' },
];

const TWEETS = [
  'Clear skies tonight, heading out with the tripod.',
  'New video is up! Thanks for all the kind comments last week.',
  'Which street food should I try next? Suggestions welcome.',
  'Rainy days are the best drawing days.',
  'Reminder: oil your chain. Your future self will thank you.',
];
const COMMENTS = ['This is beautiful!', 'How long did this take you?', 'Watched it three times already.', 'The colours in this one are unreal.'];
const REPLIES = ['Thank you so much!', 'About a week, start to finish.', 'Glad you enjoyed it!'];

export class DemoRefusedError extends Error {}

export interface DemoOptions {
  /** How many of the demo videos to make (all by default), and a cap on their length (tests). */
  videos?: number;
  maxSeconds?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface DemoResult {
  logins: { email: string; password: string; fullName: string }[];
  videos: number;
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
      await api.image(user, 'avatar', await initialsAvatar(c.fullName, c.hue));
      await api.image(user, 'cover-image', await gradientCover(c.hue));
    }

    const specs = VIDEOS.slice(0, opts.videos ?? VIDEOS.length);
    const videoIds: { id: string; owner: UserRow }[] = [];
    for (const [i, spec] of specs.entries()) {
      log(`Uploading video ${i + 1}/${specs.length}: ${spec.title}`);
      const file = path.join(work, `video-${i}.mp4`);
      await testPatternClip(ctx.media.engine, file, { seconds: Math.min(spec.seconds, opts.maxSeconds ?? Infinity), hue: spec.hue, tone: spec.tone });
      const owner = channels[spec.by]!;
      videoIds.push({ id: await api.upload(owner, await readFile(file), spec.title, spec.description), owner });
    }

    let done = 0;
    const worker = createWorker(ctx, {
      info: (_obj, msg) => {
        if (msg === 'job done') log(`Transcoded ${++done}/${specs.length}`);
      },
      error: (obj, msg) => log(`${msg}: ${JSON.stringify(obj)}`),
    });
    log(`Transcoding ${specs.length} videos...`);
    await worker.drain();
    for (const v of videoIds) await api.call(v.owner, 'PATCH', `/videos/${v.id}/publish`, { isPublished: true });

    log('Adding tweets, comments, likes, subscriptions and playlists...');
    for (const [i, channel] of channels.entries()) {
      for (const content of [TWEETS[i % TWEETS.length]!, TWEETS[(i + 1) % TWEETS.length]!]) {
        const form = new FormData();
        form.append('content', content);
        await api.call(channel, 'POST', '/tweets', form);
      }
    }
    for (const [i, v] of videoIds.entries()) {
      const others = channels.filter((c) => c.id !== v.owner.id);
      for (const [j, viewer] of others.entries()) {
        await api.call(viewer, 'POST', `/videos/${v.id}/views`, { position: 3 });
        await api.call(viewer, 'POST', `/likes/video/${v.id}/${(i + j) % 4 === 3 ? 'dislike' : 'like'}`);
      }
      const comment = await api.call(others[0]!, 'POST', `/comments/video/${v.id}`, { content: COMMENTS[i % COMMENTS.length] });
      await api.call(others[1]!, 'POST', `/comments/video/${v.id}`, { content: COMMENTS[(i + 1) % COMMENTS.length] });
      await api.call(v.owner, 'POST', `/comments/video/${v.id}/${comment._id}`, { content: REPLIES[i % REPLIES.length] });
      await api.call(others[2]!, 'POST', `/likes/comment/${comment._id}/like`);
    }
    for (const [i, channel] of channels.entries()) {
      for (const k of [1, 2]) await api.call(channel, 'POST', `/subscriptions/toggle/${channels[(i + k) % channels.length]!.id}`);
      const picks = videoIds.filter((v) => v.owner.id !== channel.id).slice(0, 3);
      if (picks.length === 0) continue;
      const { playlist } = await api.call(channel, 'POST', '/playlists', { name: `${channel.fullName.split(' ')[0]}'s favourites`, videoId: picks[0]!.id });
      for (const v of picks.slice(1)) await api.call(channel, 'POST', `/playlists/${playlist._id}/${v.id}`);
    }
    return {
      logins: channels.map((c) => ({ email: c.email, password: DEMO_PASSWORD, fullName: c.fullName })),
      videos: videoIds.length,
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

  image(as: UserRow, kind: 'avatar' | 'cover-image', png: Buffer) {
    const form = new FormData();
    form.append('image', new Blob([png], { type: 'image/png' }), `${kind}.png`);
    return this.call(as, 'PATCH', `/users/${kind}`, form);
  }

  /** Sends the file in 3 MB chunks, as the web app does; returns the new video's id. */
  async upload(as: UserRow, file: Buffer, title: string, description: string): Promise<string> {
    const uniqueId = newId();
    const total = Math.max(1, Math.ceil(file.length / CHUNK_BYTES));
    let created: { _id: string } | undefined;
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
    return created!._id;
  }
}
