/**
 * Typed mirror of the SQL migrations in ./migrations (the migrations are the source of truth;
 * see docs/decisions/001-query-layer.md). Generated columns and partial indexes live only in SQL.
 */
import { accountStates, reportReasons, reportStates, reportTargetKinds, reviewStates, roles } from '@glimpse/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  type AnyPgColumn,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const created = () => ts('created_at').notNull().defaultNow();
const updated = () => ts('updated_at').notNull().defaultNow();

/** Content state (migration 0720): set while moderators have taken the item down. */
const takedownColumns = () => ({
  takenDownAt: ts('taken_down_at'),
  takenDownBy: uuid('taken_down_by'),
  takedownReason: text('takedown_reason'),
  appealText: text('appeal_text'),
  appealedAt: ts('appealed_at'),
  appealClosedAt: ts('appeal_closed_at'),
});

export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  userName: text('user_name').notNull().unique(),
  fullName: text('full_name').notNull(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  emailVerifiedAt: ts('email_verified_at'),
  avatarKey: text('avatar_key'),
  coverKey: text('cover_key'),
  subscriberCount: integer('subscriber_count').notNull().default(0),
  role: text('role', { enum: roles }).notNull().default('user'),
  state: text('state', { enum: accountStates }).notNull().default('active'),
  stateReason: text('state_reason'),
  suspendedUntil: ts('suspended_until'),
  /** What the person wrote when registering in approval mode (migration 0710). */
  registrationReason: text('registration_reason'),
  /** Bytes of the account's video files (migration 0740): the sum of its videos' *_bytes. */
  storageBytes: bigint('storage_bytes', { mode: 'number' }).notNull().default(0),
  createdAt: created(),
  updatedAt: updated(),
});

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey(),
  familyId: uuid('family_id').notNull(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  rotatedAt: ts('rotated_at'),
  revokedAt: ts('revoked_at'),
  expiresAt: ts('expires_at').notNull(),
  userAgent: text('user_agent'),
  createdAt: created(),
});

export const emailTokens = pgTable('email_tokens', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  purpose: text('purpose', { enum: ['verify', 'reset'] }).notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: created(),
});

export const videos = pgTable('videos', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  duration: doublePrecision('duration').notNull().default(0),
  width: integer('width'),
  height: integer('height'),
  views: bigint('views', { mode: 'number' }).notNull().default(0),
  likes: integer('likes').notNull().default(0),
  dislikes: integer('dislikes').notNull().default(0),
  commentsCount: integer('comments_count').notNull().default(0),
  /** public | unlisted (by its link only) | private (migration 0800, ADR 013). */
  privacy: text('privacy', { enum: ['public', 'unlisted', 'private'] }).notNull().default('private'),
  /** A scheduled publication: private until the publish job makes it public at this time. */
  publishAt: ts('publish_at'),
  /** When the video was first listed (public and ready, migration 0900): its publication time. */
  announcedAt: ts('announced_at'),
  /** Viewers may download the progressive mp4 (the owner always downloads the original). */
  downloadsEnabled: boolean('downloads_enabled').notNull().default(false),
  commentsEnabled: boolean('comments_enabled').notNull().default(true),
  status: text('status', { enum: ['processing', 'ready', 'failed'] }).notNull().default('processing'),
  progress: real('progress').notNull().default(0),
  failureReason: text('failure_reason'),
  sourceKey: text('source_key'),
  thumbnailKey: text('thumbnail_key'),
  hlsKey: text('hls_key'),
  storyboardKey: text('storyboard_key'),
  progressiveKey: text('progressive_key'),
  /** The HLS rungs the job planned ('240p', ...) and those stored so far (migration 1020, ADR 019). */
  renditions: text('renditions').array().notNull().default(sql`'{}'`),
  renditionsReady: text('renditions_ready').array().notNull().default(sql`'{}'`),
  /** In every public media URL; redrawn on each publish and unpublish (ADR 011). */
  mediaToken: text('media_token')
    .notNull()
    .default(sql`replace(gen_random_uuid()::text, '-', '')`),
  sourceBytes: bigint('source_bytes', { mode: 'number' }).notNull().default(0),
  mediaBytes: bigint('media_bytes', { mode: 'number' }).notNull().default(0),
  thumbnailBytes: bigint('thumbnail_bytes', { mode: 'number' }).notNull().default(0),
  /** False for videos from before migration 0740 until the worker measured their files. */
  storageMeasured: boolean('storage_measured').notNull().default(true),
  ...takedownColumns(),
  createdAt: created(),
  updatedAt: updated(),
});

export const tweets = pgTable('tweets', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  content: text('content').notNull(),
  imageKey: text('image_key'),
  likes: integer('likes').notNull().default(0),
  dislikes: integer('dislikes').notNull().default(0),
  commentsCount: integer('comments_count').notNull().default(0),
  reviewState: text('review_state', { enum: reviewStates }).notNull().default('published'),
  ...takedownColumns(),
  createdAt: created(),
  updatedAt: updated(),
});

export const comments = pgTable('comments', {
  id: uuid('id').primaryKey(),
  videoId: uuid('video_id').references(() => videos.id, { onDelete: 'cascade' }),
  tweetId: uuid('tweet_id').references(() => tweets.id, { onDelete: 'cascade' }),
  /** Live chat (migration 1051). */
  liveId: uuid('live_id').references((): AnyPgColumn => lives.id, { onDelete: 'cascade' }),
  parentId: uuid('parent_id'),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  content: text('content').notNull(),
  likes: integer('likes').notNull().default(0),
  dislikes: integer('dislikes').notNull().default(0),
  repliesCount: integer('replies_count').notNull().default(0),
  reviewState: text('review_state', { enum: reviewStates }).notNull().default('published'),
  pinnedAt: ts('pinned_at'),
  ...takedownColumns(),
  createdAt: created(),
  updatedAt: updated(),
});

export const likes = pgTable('likes', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  videoId: uuid('video_id').references(() => videos.id, { onDelete: 'cascade' }),
  tweetId: uuid('tweet_id').references(() => tweets.id, { onDelete: 'cascade' }),
  commentId: uuid('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
  value: smallint('value').notNull(),
  createdAt: created(),
});

export const subscriptions = pgTable(
  'subscriptions',
  {
    subscriberId: uuid('subscriber_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.subscriberId, t.channelId] })],
);

export const playlists = pgTable('playlists', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  createdAt: created(),
  updatedAt: updated(),
});

export const playlistVideos = pgTable(
  'playlist_videos',
  {
    playlistId: uuid('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.playlistId, t.videoId] })],
);

export const watchHistory = pgTable(
  'watch_history',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    watchedAt: ts('watched_at').notNull().defaultNow(),
    positionSeconds: real('position_seconds').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.videoId] })],
);

export const jobs = pgTable('jobs', {
  id: uuid('id').primaryKey(),
  queue: text('queue').notNull(),
  payload: jsonb('payload').notNull(),
  status: text('status', { enum: ['queued', 'running', 'done', 'failed'] }).notNull().default('queued'),
  attempts: integer('attempts').notNull().default(0),
  maxAttempts: integer('max_attempts').notNull().default(3),
  ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
  runAt: ts('run_at').notNull().defaultNow(),
  lockedAt: ts('locked_at'),
  lockedBy: text('locked_by'),
  heartbeatAt: ts('heartbeat_at'),
  lastError: text('last_error'),
  result: jsonb('result'),
  createdAt: created(),
  updatedAt: updated(),
});

// --- videos (migration 0200) ---

export const uploadSessions = pgTable(
  'upload_sessions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    uniqueId: text('unique_id').notNull(),
    totalChunks: integer('total_chunks').notNull(),
    finalizingAt: ts('finalizing_at'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.uniqueId] })],
);

export const uploadChunks = pgTable(
  'upload_chunks',
  {
    userId: uuid('user_id').notNull(),
    uniqueId: text('unique_id').notNull(),
    chunkNumber: integer('chunk_number').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.uniqueId, t.chunkNumber] })],
);

/** Uploads their client cancelled (migration 1072): a chunk still on its way opens nothing. */
export const uploadCancels = pgTable(
  'upload_cancels',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    uniqueId: text('unique_id').notNull(),
    cancelledAt: ts('cancelled_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.uniqueId] })],
);

export const videoViews = pgTable(
  'video_views',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    viewerKey: text('viewer_key').notNull(),
    countedAt: ts('counted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.viewerKey] })],
);

export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetsAt: ts('resets_at').notNull(),
});

/** Storage renames a migration recorded; applied at boot (storage/storage-moves.ts). */
export const storageMoves = pgTable('storage_moves', {
  fromKey: text('from_key').primaryKey(),
  toKey: text('to_key').notNull(),
});

export const instanceSettings = pgTable('instance_settings', {
  id: boolean('id').primaryKey().default(true),
  value: jsonb('value').notNull().default({}),
  updatedAt: updated(),
});

// --- creator moderation (migration 0730) ---

export const watchedWords = pgTable('watched_words', {
  id: uuid('id').primaryKey(),
  word: text('word').notNull(),
  createdAt: created(),
});

export const channelBlocks = pgTable(
  'channel_blocks',
  {
    channelId: uuid('channel_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.userId] })],
);

/** Bytes of each finished upload, kept 24 hours: the daily quota (migration 0740). */
export const uploadBytes = pgTable('upload_bytes', {
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
  uploadedAt: ts('uploaded_at').notNull().defaultNow(),
});

// --- moderation (migration 0720) ---

export const reports = pgTable('reports', {
  id: uuid('id').primaryKey(),
  /** Null for a report from another server (migration 1045): then `reporterActorId`. */
  reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'cascade' }),
  reporterActorId: uuid('reporter_actor_id').references((): AnyPgColumn => remoteActors.id, { onDelete: 'cascade' }),
  targetKind: text('target_kind', { enum: reportTargetKinds }).notNull(),
  targetId: uuid('target_id').notNull(),
  reason: text('reason', { enum: reportReasons }).notNull(),
  text: text('text').notNull().default(''),
  state: text('state', { enum: reportStates }).notNull().default('open'),
  createdAt: created(),
  resolvedAt: ts('resolved_at'),
  resolvedBy: uuid('resolved_by'),
});

export const moderationLog = pgTable('moderation_log', {
  id: uuid('id').primaryKey(),
  actorId: uuid('actor_id'),
  targetKind: text('target_kind').notNull(),
  /** NULL once the target's account was deleted. */
  targetId: uuid('target_id'),
  action: text('action').notNull(),
  reason: text('reason').notNull().default(''),
  /** What the target was called when the action was taken (migration 1030); NULL once its account was deleted. */
  targetLabel: text('target_label'),
  /** Taken with `npm run admin` (no account acted). */
  fromCli: boolean('from_cli').notNull().default(false),
  createdAt: created(),
});

// --- captions (migration 0810; the generated `search` tsvector lives only in SQL) ---
export const videoCaptions = pgTable(
  'video_captions',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    /** BCP 47 tag as the owner typed it (unique per video, case-insensitively by normalisation). */
    lang: text('lang').notNull(),
    label: text('label').notNull(),
    storageKey: text('storage_key').notNull(),
    bytes: integer('bytes').notNull(),
    /** The cues' plain text, for search. */
    body: text('body').notNull().default(''),
    updatedAt: updated(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.lang] })],
);

// --- private feed tokens (migration 0910): one per user, the token's sha256 only ---
export const feedTokens = pgTable('feed_tokens', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: created(),
});

/** Federation (migration 1040, ADR 023): local actors' keys, remote actors, follows both ways, remote videos. */
export const federationKeys = pgTable('federation_keys', {
  id: text('id').primaryKey(),
  /** Null once the account is deleted (migration 1047): kept to sign its Delete, then pruned. */
  userId: uuid('user_id')
    .unique()
    .references(() => users.id, { onDelete: 'set null' }),
  publicKeyPem: text('public_key_pem').notNull(),
  privateKeyPem: text('private_key_pem').notNull(),
  createdAt: created(),
});

export const remoteActors = pgTable('remote_actors', {
  id: uuid('id').primaryKey(),
  uri: text('uri').notNull().unique(),
  host: text('host').notNull(),
  type: text('type').notNull(),
  preferredUsername: text('preferred_username').notNull(),
  name: text('name').notNull(),
  summary: text('summary').notNull().default(''),
  url: text('url'),
  iconUrl: text('icon_url'),
  inbox: text('inbox').notNull(),
  sharedInbox: text('shared_inbox'),
  publicKeyId: text('public_key_id').notNull(),
  publicKeyPem: text('public_key_pem').notNull(),
  fetchedAt: ts('fetched_at').notNull().defaultNow(),
  createdAt: created(),
});

export const remoteFollowers = pgTable(
  'remote_followers',
  {
    channelId: uuid('channel_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => remoteActors.id, { onDelete: 'cascade' }),
    followId: text('follow_id').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.actorId] })],
);

export const remoteFollows = pgTable(
  'remote_follows',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => remoteActors.id, { onDelete: 'cascade' }),
    followId: text('follow_id').notNull().unique(),
    state: text('state', { enum: ['pending', 'accepted'] }).notNull().default('pending'),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.actorId] })],
);

export const remoteVideos = pgTable('remote_videos', {
  id: uuid('id').primaryKey(),
  uri: text('uri').notNull().unique(),
  actorId: uuid('actor_id')
    .notNull()
    .references(() => remoteActors.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  content: text('content').notNull().default(''),
  duration: doublePrecision('duration').notNull().default(0),
  pageUrl: text('page_url').notNull(),
  thumbnailUrl: text('thumbnail_url'),
  hlsUrl: text('hls_url'),
  mp4Url: text('mp4_url'),
  publishedAt: ts('published_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

export const federatedVideos = pgTable('federated_videos', {
  videoId: uuid('video_id').primaryKey(),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentAt: ts('sent_at').notNull().defaultNow(),
});

/** Local comments whose Note went to other servers (migration 1071): Update and Delete follow them. */
export const federatedLocalComments = pgTable('federated_local_comments', {
  commentId: uuid('comment_id').primaryKey(),
  videoId: uuid('video_id')
    .notNull()
    .references(() => videos.id, { onDelete: 'cascade' }),
  channelId: uuid('channel_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  authorId: uuid('author_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentAt: ts('sent_at').notNull().defaultNow(),
});

export const inboxSeen = pgTable('inbox_seen', {
  activityId: text('activity_id').primaryKey(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

export const federationHosts = pgTable('federation_hosts', {
  host: text('host').primaryKey(),
  failures: integer('failures').notNull().default(0),
  pausedUntil: ts('paused_until'),
});

/** Federation blocks (migration 1041): a remote host, or one remote actor by its URI. */
export const federationBlocks = pgTable('federation_blocks', {
  target: text('target').primaryKey(),
  kind: text('kind', { enum: ['host', 'actor'] }).notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: created(),
});

/** Likes and dislikes across servers (migration 1042): remote actors' of our videos, our users' of remote videos. */
export const remoteVideoRates = pgTable(
  'remote_video_rates',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => remoteActors.id, { onDelete: 'cascade' }),
    value: smallint('value').notNull(),
    activityId: text('activity_id').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.actorId] })],
);

export const remoteVideoUserRates = pgTable(
  'remote_video_user_rates',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    remoteVideoId: uuid('remote_video_id')
      .notNull()
      .references(() => remoteVideos.id, { onDelete: 'cascade' }),
    value: smallint('value').notNull(),
    activityId: text('activity_id').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.remoteVideoId] })],
);

/** Comments across servers (migration 1043): Notes on our videos or on remote videos, by local users or remote actors. */
export const federatedComments = pgTable('federated_comments', {
  id: uuid('id').primaryKey(),
  uri: text('uri').notNull().unique(),
  localVideoId: uuid('local_video_id').references(() => videos.id, { onDelete: 'cascade' }),
  remoteVideoId: uuid('remote_video_id').references(() => remoteVideos.id, { onDelete: 'cascade' }),
  authorUserId: uuid('author_user_id').references(() => users.id, { onDelete: 'cascade' }),
  authorActorId: uuid('author_actor_id').references(() => remoteActors.id, { onDelete: 'cascade' }),
  inReplyTo: text('in_reply_to').notNull(),
  content: text('content').notNull(),
  reviewState: text('review_state', { enum: ['published', 'held'] }).notNull().default('published'),
  publishedAt: ts('published_at').notNull().defaultNow(),
});

/** A channel's blocks of remote accounts (migration 1045). */
export const channelRemoteBlocks = pgTable(
  'channel_remote_blocks',
  {
    channelId: uuid('channel_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => remoteActors.id, { onDelete: 'cascade' }),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.actorId] })],
);

/** Our users' reports sent to other servers as Flag (migration 1045), one per user and object. */
export const federationFlags = pgTable(
  'federation_flags',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    objectUri: text('object_uri').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.objectUri] })],
);

/** Remote actors' Announces of our videos (migration 1046), one per actor and video. */
export const remoteShares = pgTable(
  'remote_shares',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => remoteActors.id, { onDelete: 'cascade' }),
    activityId: text('activity_id').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.actorId] })],
);

/** Federation policy (migration 1044): open, or only the allowed hosts. */
export const federationPolicy = pgTable('federation_policy', {
  id: boolean('id').primaryKey().default(true),
  mode: text('mode', { enum: ['open', 'allowlist'] }).notNull().default('open'),
});

export const federationAllowedHosts = pgTable('federation_allowed_hosts', {
  host: text('host').primaryKey(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: created(),
});
// --- lives (migration 1050, ADR 024): the stream key's sha256 only ---
export const lives = pgTable('lives', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  privacy: text('privacy', { enum: ['public', 'unlisted', 'private'] }).notNull().default('public'),
  permanent: boolean('permanent').notNull().default(false),
  saveReplay: boolean('save_replay').notNull().default(false),
  latencyMode: text('latency_mode', { enum: ['normal', 'low'] }).notNull().default('normal'),
  keyHash: text('key_hash').notNull(),
  state: text('state', { enum: ['waiting', 'live', 'ended'] }).notNull().default('waiting'),
  sessionId: uuid('session_id'),
  startedAt: ts('started_at'),
  endedAt: ts('ended_at'),
  heartbeatAt: ts('heartbeat_at'),
  replayVideoId: uuid('replay_video_id').references(() => videos.id, { onDelete: 'set null' }),
  /** The live's own thumbnail (migration 1054), under lives/{id}/. */
  thumbnailKey: text('thumbnail_key'),
  /** Its bytes, counted in the owner's storage (migration 1080); null until an older one is measured. */
  thumbnailBytes: bigint('thumbnail_bytes', { mode: 'number' }).default(0),
  createdAt: created(),
});

// --- live viewers (migration 1053): a keyed hash per viewer, seen within the last minute ---
export const liveViewers = pgTable(
  'live_viewers',
  {
    liveId: uuid('live_id')
      .notNull()
      .references(() => lives.id, { onDelete: 'cascade' }),
    viewer: text('viewer').notNull(),
    seenAt: ts('seen_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.liveId, t.viewer] })],
);
