/**
 * Typed mirror of the SQL migrations in ./migrations (the migrations are the source of truth;
 * see docs/decisions/001-query-layer.md). Generated columns and partial indexes live only in SQL.
 */
import { roles } from '@glimpse/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
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
  isPublished: boolean('is_published').notNull().default(false),
  status: text('status', { enum: ['processing', 'ready', 'failed'] }).notNull().default('processing'),
  progress: real('progress').notNull().default(0),
  failureReason: text('failure_reason'),
  sourceKey: text('source_key'),
  thumbnailKey: text('thumbnail_key'),
  hlsKey: text('hls_key'),
  storyboardKey: text('storyboard_key'),
  progressiveKey: text('progressive_key'),
  /** In every public media URL; redrawn on each publish and unpublish (ADR 011). */
  mediaToken: text('media_token')
    .notNull()
    .default(sql`replace(gen_random_uuid()::text, '-', '')`),
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
  createdAt: created(),
  updatedAt: updated(),
});

export const comments = pgTable('comments', {
  id: uuid('id').primaryKey(),
  videoId: uuid('video_id').references(() => videos.id, { onDelete: 'cascade' }),
  tweetId: uuid('tweet_id').references(() => tweets.id, { onDelete: 'cascade' }),
  parentId: uuid('parent_id'),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  content: text('content').notNull(),
  likes: integer('likes').notNull().default(0),
  dislikes: integer('dislikes').notNull().default(0),
  repliesCount: integer('replies_count').notNull().default(0),
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
