import { z } from 'zod';
import { oneLine } from './text.ts';
import { accountStates } from './instance.ts';
import { role } from './auth.ts';
import { pageQuery } from './common.ts';

/** A video whose transcode failed, as the overview lists it (with a Retry button). */
export const failedTranscode = z.object({
  videoId: z.string(),
  title: z.string(),
  ownerUserName: z.string(),
  reason: z.string().nullable(),
  failedAt: z.string(),
});
export type FailedTranscode = z.infer<typeof failedTranscode>;

/** GET admin/overview: the instance at a glance (ARCHITECTURE §8). */
export const adminOverview = z.object({
  users: z.object({ total: z.number(), newThisWeek: z.number(), pendingApproval: z.number(), suspended: z.number() }),
  videos: z.object({ total: z.number(), ready: z.number(), processing: z.number(), failed: z.number() }),
  /** Bytes every account's videos hold in storage (sources and derived files, as quotas count them). */
  storage: z.object({ bytes: z.number() }),
  /** Reported items waiting for a moderator, and take-downs whose owner appealed. */
  moderation: z.object({ openReports: z.number(), appeals: z.number() }),
  transcodes: z.object({ queued: z.number(), running: z.number(), failed: z.array(failedTranscode) }),
});
export type AdminOverview = z.infer<typeof adminOverview>;

/** An account as staff see it in the users list. */
export const adminUser = z.object({
  _id: z.string(),
  userName: z.string(),
  fullName: z.string(),
  email: z.string(),
  role,
  state: z.enum(accountStates),
  stateReason: z.string().nullable(),
  suspendedUntil: z.string().nullable(),
  emailVerified: z.boolean(),
  videos: z.number(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUser>;

export const adminUsersQuery = pageQuery.extend({
  /** Part of a user name, full name or email. */
  q: oneLine().max(100).optional(),
  state: z.enum(accountStates).optional(),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;

export const roleChangeBody = z.object({ role }).strict();

export const adminMessages = {
  overviewFetched: 'Overview fetched successfully',
  transcodeRetried: 'The video is queued for transcoding again',
  onlyFailedRetry: 'Only a video whose processing failed can be retried',
  sourceGone: 'The original file of this video is gone: it cannot be processed again',
  usersFetched: 'Users fetched successfully',
  roleChanged: 'Role changed successfully',
  ownRole: 'You cannot change your own role',
} as const;
