import { z } from 'zod';
import { videoCaption } from './captions.ts';
import { takedownNotice } from './moderation.ts';
import { id, imageRef, paged, pageQuery } from './common.ts';
import { playlistSummary } from './playlists.ts';
import { searchText } from './search-text.ts';
import { oneLine } from './text.ts';
import { channel, owner } from './users.ts';

export const TITLE_MAX = 100;
export const DESCRIPTION_MAX = 5000;
/** The spec's upload chunk; the server takes any chunk up to this size (see ADR 005-uploads-and-transcode-jobs). */
export const CHUNK_BYTES = 3 * 1024 * 1024;
export const UNIQUE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * Video files the upload accepts. The server recognises them by content (whatever the name);
 * the web app filters the file picker by these types and names first.
 */
export const VIDEO_UPLOAD = {
  extensions: ['mp4', 'mov', 'm4v', 'webm', 'mkv', 'avi', '3gp'],
  mimeTypes: ['video/mp4', 'video/quicktime', 'video/x-m4v', 'video/webm', 'video/x-matroska', 'video/x-msvideo', 'video/avi', 'video/3gpp'],
  text: 'mp4, mov, m4v, webm, mkv, avi or 3gp',
} as const;
/** Duration buckets in seconds (ADR 004-search-and-durations): short < 240 <= medium <= 900 < long. */
export const DURATION_EDGES = { shortBelow: 240, longAbove: 900 } as const;

export const videoMessages = {
  titleRequired: 'Title is required',
  uploaded: 'Video uploaded successfully',
  deleted: 'Video deleted successfully',
  notFound: 'Video not found',
  /** GET of a video the moderators took down that visitors could otherwise open (410). */
  removed: 'This video was removed by the moderators',
  loginToUpload: 'Please login to upload a video',
  notOwner: 'You can only change your own videos',
  originalOwnerOnly: 'Only the owner can download the original of a video',
  originalGone: 'The original of this video is no longer stored',
  progressiveMissing: 'This video has no mp4 file yet',
  posterMissing: 'This video has no poster yet',
  loginForHistory: 'Please login to view your watch history.',
  downloadsOff: 'The owner does not allow downloads of this video',
  publishAtPast: 'The publication time must be in the future',
  publishAtTooFar: 'The publication time must be within a year',
  scheduledIsPrivate: 'A scheduled video stays private until its publication time',
} as const;

/**
 * Who sees a video (ADR 013): everyone (`public`), whoever has its link (`unlisted`: never listed
 * for others) or its owner only (`private`). A scheduled video is private with a `publishAt`.
 */
export const videoPrivacies = ['public', 'unlisted', 'private'] as const;
export const videoPrivacy = z.enum(videoPrivacies, { message: 'privacy must be public, unlisted or private' });
export type VideoPrivacy = z.infer<typeof videoPrivacy>;
/** How far ahead a publication can be scheduled. */
export const PUBLISH_AT_MAX_DAYS = 366;

export const videoTitle = oneLine()
  .min(1, videoMessages.titleRequired)
  .max(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`);
export const videoDescription = z
  .string()
  .trim()
  .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`);

export const videoIdParam = z.object({ id });
/**
 * `{publicId}.mp4` (spec: `videoFile.publicId`): the progressive file of a video; `{publicId}`
 * alone: its poster, which a spec client asks as its `<video poster>`.
 */
export const progressiveFileParam = z.object({
  file: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:\.mp4)?$/i, { message: 'Invalid video file' }),
});

/** A yes/no field as JSON or form fields send it: true/false or 1/0, as such or as text. */
const flag = (name: string) =>
  z.union([z.boolean(), z.literal([1, 0]).transform((v) => v === 1), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')], {
    message: `${name} must be true, false, 1 or 0`,
  });

/** `?download=1` asks for the progressive file as an attachment: allowed when the owner allows downloads. */
export const progressiveFileQuery = z.object({ download: flag('download').optional() });

/**
 * Privacy and downloads, on upload (the last chunk's fields) and edit. `publishAt` (an ISO time
 * in the future) schedules the publication: the video is private until then; null or '' cancels
 * a schedule. Setting `privacy` alone also cancels one.
 */
export const videoPrivacyFields = z.object({
  privacy: videoPrivacy.optional(),
  publishAt: z
    .union([z.literal('').transform(() => null), z.null(), z.iso.datetime({ offset: true, message: 'publishAt must be an ISO date and time' })])
    .optional(),
  downloadsEnabled: flag('downloadsEnabled').optional(),
});
export type VideoPrivacyFields = z.infer<typeof videoPrivacyFields>;

/** PATCH videos/{id} (JSON or form fields): any of these; the thumbnail comes as the `image` file. */
export const videoEditFields = z
  .object({
    title: videoTitle.optional(),
    description: videoDescription.optional(),
    /** The owner turns comments on or off for this video. */
    commentsEnabled: flag('commentsEnabled').optional(),
  })
  .extend(videoPrivacyFields.shape);
export type VideoEditFields = z.infer<typeof videoEditFields>;

export const videoListQuery = pageQuery.extend({
  query: searchText.optional(),
  sortBy: z.enum(['relevance', 'uploadDate', 'views']).optional(),
  type: z.enum(['video', 'playlist', 'channel']).default('video'),
  duration: z.enum(['any', 'short', 'medium', 'long']).default('any'),
  // 'thisWeak' is the spec's spelling; both are accepted.
  uploadDate: z
    .enum(['anytime', 'today', 'thisWeek', 'thisWeak', 'thisMonth', 'thisYear'])
    .default('anytime')
    .transform((v) => (v === 'thisWeak' ? 'thisWeek' : v)),
  /** Accepted for compatibility with the spec's client; identity comes only from the token. */
  userId: z.string().optional(),
});
export type VideoListQuery = z.infer<typeof videoListQuery>;

/**
 * Chunks are numbered from 0 or from 1, as the client likes: a session is complete when it holds
 * exactly 0..totalChunks-1 or 1..totalChunks (ADR 005).
 */
export const uploadQuery = z.object({
  uniqueId: z.string({ message: 'uniqueId is required' }).regex(UNIQUE_ID, 'uniqueId must be 1-64 letters, digits, _ or -'),
  chunkNumber: z.coerce.number({ message: 'chunkNumber must be a number' }).int('chunkNumber must be a whole number').min(0, 'chunkNumber must not be negative'),
  totalChunks: z.coerce.number({ message: 'totalChunks must be a number' }).int('totalChunks must be a whole number').min(1, 'totalChunks must be at least 1').max(100_000, 'totalChunks is too large'),
});
export type UploadQuery = z.infer<typeof uploadQuery>;

/** The chunk's form fields besides the file; the last chunk's title, description and image are checked on their own. */
export const uploadChunkFields = z.object({
  isLastChunk: flag('isLastChunk').default(false),
});

export const uploadStatusParam = z.object({
  uniqueId: z.string().regex(UNIQUE_ID, 'uniqueId must be 1-64 letters, digits, _ or -'),
});

export const uploadStatus = z.object({
  uniqueId: z.string(),
  totalChunks: z.number().int(),
  receivedChunks: z.array(z.number().int()),
  receivedBytes: z.number().int(),
});
export type UploadStatus = z.infer<typeof uploadStatus>;

/** Without isPublished the state flips (the dashboard's toggle). */
export const publishBody = z
  .object({ isPublished: flag('isPublished').optional() })
  .nullish()
  .transform((b) => b ?? {});
export const viewBody = z
  .object({ position: z.coerce.number().min(0).max(1e7).optional() })
  .nullish()
  .transform((b) => b ?? {});

export const video = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  thumbnail: imageRef,
  /** Same image as thumbnail: the uploaded one or the frame the transcoder grabbed. */
  poster: imageRef,
  videoFile: z.object({ publicId: z.string(), url: z.string().nullable() }),
  storyboard: imageRef,
  duration: z.number(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  views: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** privacy === 'public' (the spec's field). */
  isPublished: z.boolean(),
  privacy: videoPrivacy,
  /** The scheduled publication time while the video waits for it, else null. */
  publishAt: z.string().nullable(),
  /** Viewers may download the progressive mp4 (`?download=1`); the owner always may download the original. */
  downloadsEnabled: z.boolean(),
  status: z.enum(['processing', 'ready', 'failed']),
  /** 0..1 while processing; meaningful to the owner only. */
  progress: z.number(),
  failureReason: z.string().nullable(),
  /**
   * The HLS ladder, lowest first, and which rungs play yet: the video plays from its lowest rung
   * on while the others are still being made (ADR 019). Empty for videos made before.
   */
  renditions: z.array(z.object({ name: z.string(), ready: z.boolean() })),
  likes: z.number().int(),
  dislikes: z.number().int(),
  likeStatus: z.union([z.literal(1), z.literal(-1), z.literal(0)]),
  isSubscribed: z.boolean(),
  subscribers: z.number().int(),
  noOfComments: z.number().int(),
  /** False when the owner turned comments off: no new comments, and the existing ones are not listed. */
  commentsEnabled: z.boolean(),
  owner,
  /** Only on its owner's own view of a taken-down item: the moderators' notice (ADR 012). */
  takedown: takedownNotice.nullable().optional(),
  /** Subtitle tracks (WebVTT), URLs under the same media rules as the video's other files. */
  captions: z.array(videoCaption).optional(),
});
export type Video = z.infer<typeof video>;
export type Rendition = Video['renditions'][number];

/** Every answer about one video (GET, PATCH, publish, the upload's last chunk): `data.video` (spec §7). */
export const videoResult = z.object({ video });
export type VideoResult = z.infer<typeof videoResult>;

/** GET /videos: videos, or with `type` playlists or channels, at `data.data` (spec §7's "data list"). */
export const videoSearchPage = paged(z.union([video, playlistSummary, channel]));
export type VideoSearchPage = z.infer<typeof videoSearchPage>;

export const historyEntry = video.extend({ watchedAt: z.string(), position: z.number() });
export type HistoryEntry = z.infer<typeof historyEntry>;

export const channelStats = z.object({
  totalViews: z.number().int(),
  totalSubscribers: z.number().int(),
  totalLikes: z.number().int(),
  totalComments: z.number().int(),
  totalVideos: z.number().int(),
});
export type ChannelStats = z.infer<typeof channelStats>;

/** GET dashboard/channel-stats answers `data.stats` (spec §7). */
export const channelStatsResult = z.object({ stats: channelStats });
export type ChannelStatsResult = z.infer<typeof channelStatsResult>;
