import { z } from 'zod';
import { id } from './common.ts';
import { oneLine } from './text.ts';

/**
 * Lives (issue 36, ADR 024): a creator's live with its secret stream key. The key is shown once,
 * when the live is created or its key regenerated, and stored only as a hash.
 */
export const livePrivacies = ['public', 'unlisted', 'private'] as const;
export const latencyModes = ['normal', 'low'] as const;
/** waiting: no stream yet (or between sessions of a permanent live); live: a stream is on; ended: a one-off live is over. */
export const liveStates = ['waiting', 'live', 'ended'] as const;
export type LiveState = (typeof liveStates)[number];

export const liveBody = z.object({
  title: oneLine().min(1, 'Please enter a title').max(100),
  description: z.string().trim().max(5000).default(''),
  privacy: z.enum(livePrivacies).default('public'),
  /** The same key for every session, and the live waits again after each one. */
  permanent: z.boolean().default(false),
  /** A session's recording becomes a (private) video when it ends. */
  saveReplay: z.boolean().default(false),
  latencyMode: z.enum(latencyModes).default('normal'),
});
export type LiveBody = z.infer<typeof liveBody>;

export const livePatch = liveBody.partial().strict();
export type LivePatch = z.infer<typeof livePatch>;

export const liveParams = z.object({ liveId: id });

export const live = z.object({
  _id: z.string(),
  ownerId: z.string(),
  title: z.string(),
  description: z.string(),
  privacy: z.enum(livePrivacies),
  permanent: z.boolean(),
  saveReplay: z.boolean(),
  latencyMode: z.enum(latencyModes),
  state: z.enum(liveStates),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  /** The master playlist while the live is on, else null. */
  hlsUrl: z.string().nullable(),
  /** People watching now (their player asked for the playlist within the last 30 s); null when not on air. */
  viewers: z.number().int().nullable(),
  /** The replay video of the last session, once made. */
  replayVideoId: z.string().nullable(),
  /** The live's own thumbnail (a URL; a private live's carries its owner's access key), or null. */
  thumbnail: z.string().nullable(),
  createdAt: z.string(),
});
export type Live = z.infer<typeof live>;

/** What the owner gets on create and on a new key: the only time the key is shown. */
export const liveWithKey = z.object({ live, rtmpUrl: z.string(), streamKey: z.string() });
export type LiveWithKey = z.infer<typeof liveWithKey>;

export const liveHlsParams = z.object({
  liveId: id,
  sessionId: id,
  /** `pub`, or a private live's key (given to its owner in hlsUrl). */
  access: z.string().regex(/^(pub|k-[\w-]{32})$/, 'Unknown file'),
  /** The file under the session (the route's wildcard): master.m3u8, or a rung's index.m3u8 / seg_NNNNNN.ts. */
  '*': z.string().regex(/^(master\.m3u8|[a-z0-9]{1,12}\/(index\.m3u8|seg_\d{6}\.ts))$/, 'Unknown file'),
});

/** A live's thumbnail file: the access part as for its HLS, then the stored file's name. */
export const liveThumbnailParams = z.object({
  liveId: id,
  access: z.string().regex(/^(pub|k-[\w-]{32})$/, 'Unknown file'),
  file: z.string().regex(/^thumb-[0-9a-f-]{36}\.(png|jpg)$/, 'Unknown file'),
});

export const liveMessages = {
  loginRequired: 'Please login to manage your lives',
  created: 'Live created successfully',
  fetched: 'Live fetched successfully',
  listed: 'Lives fetched successfully',
  updated: 'Live updated successfully',
  deleted: 'Live deleted successfully',
  keyRegenerated: 'Stream key regenerated successfully',
  notFound: 'Live not found',
  notOwner: 'You can only manage your own lives',
  disabled: 'Lives are not enabled on this instance',
  onAir: 'A live cannot be deleted while it is on air',
  thumbnailSet: 'Live thumbnail updated successfully',
  thumbnailRemoved: 'Live thumbnail removed successfully',
  thumbnailMissing: 'Please choose an image for the thumbnail',
} as const;
