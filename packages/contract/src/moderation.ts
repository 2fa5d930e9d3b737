import { z } from 'zod';
import { id, imageRef, pageQuery, paged } from './common.ts';
import type { Role } from './roles.ts';
import { MODERATION_REASON_MAX, REPORT_TEXT_MAX, reportReasons, reportStates, reportTargetKinds, takedownKinds, userReportTargetKinds } from './moderation-terms.ts';

export * from './moderation-terms.ts';

export const moderationMessages = {
  reportLogin: 'Please login to report',
  reported: 'Thanks, the moderators will look at it',
  alreadyReported: 'You have already reported this',
  ownContent: 'You cannot report your own content',
  targetNotFound: 'Not found',
  notTakenDown: 'This is not removed',
  alreadyTakenDown: 'This is already removed',
  alreadyAppealed: 'You have already appealed',
  appealed: 'Your appeal was sent to the moderators',
  appealLogin: 'Please login to appeal',
  reasonRequired: 'Please give a reason',
  staffTarget: 'Only an admin can suspend a moderator',
  adminTarget: 'Admins cannot be suspended',
  selfTarget: 'You cannot suspend yourself',
  notSuspended: 'This account is not suspended',
  untilPast: 'The end date must be in the future',
  done: 'Done',
} as const;

const reasonText = z.string().trim().max(MODERATION_REASON_MAX, `At most ${MODERATION_REASON_MAX} characters`);
/** The reason a take-down or a suspension gives its owner: required. */
const requiredReason = reasonText.min(1, moderationMessages.reasonRequired);

export const createReportBody = z.object({
  targetKind: z.enum(userReportTargetKinds, { message: 'Invalid target kind' }),
  targetId: id,
  reason: z.enum(reportReasons, { message: 'Please choose a reason' }),
  text: z.string().trim().max(REPORT_TEXT_MAX, `At most ${REPORT_TEXT_MAX} characters`).optional(),
});
export type CreateReportBody = z.infer<typeof createReportBody>;

/** Where a reported item lives, for a label and a link (null fields: gone, or not that kind). */
export const targetContext = z.object({
  /** Video title, tweet or comment text, channel name; null when the item no longer exists. */
  label: z.string().nullable(),
  /** The video a comment (or the video itself) is on. */
  videoId: z.string().nullable(),
  /** The tweet a comment (or the tweet itself) is on. */
  tweetId: z.string().nullable(),
  /** The owner's user name (channel link, tweet link). */
  userName: z.string().nullable(),
  /** The remote video a comment across servers is under (its page here: /remote/video/{id}). */
  remoteVideoId: z.string().nullable(),
});
export type TargetContext = z.infer<typeof targetContext>;

export const report = z.object({
  _id: z.string(),
  targetKind: z.enum(reportTargetKinds),
  targetId: z.string(),
  reason: z.enum(reportReasons),
  text: z.string(),
  state: z.enum(reportStates),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  target: targetContext,
});
export type Report = z.infer<typeof report>;
export const reportPage = paged(report);
export type ReportPage = z.infer<typeof reportPage>;

/** The take-down notice its owner sees on the item (null while visible). */
export const takedownNotice = z.object({
  reason: z.string(),
  at: z.string(),
  appealText: z.string().nullable(),
  appealedAt: z.string().nullable(),
  /** A moderator read the appeal and kept the item removed. */
  appealClosed: z.boolean(),
});
export type TakedownNotice = z.infer<typeof takedownNotice>;
export const removedNotice = (reason: string) => `Removed by the moderators: ${reason}`;

export const takedownParams = z.object({ kind: z.enum(takedownKinds, { message: 'Invalid kind' }), id });
export const appealBody = z.object({
  text: z.string().trim().min(1, 'Please write your appeal').max(REPORT_TEXT_MAX, `At most ${REPORT_TEXT_MAX} characters`),
});

// --- the queue (staff) ---

export const queueStates = ['open', 'appealed', 'dismissed', 'actioned'] as const;
export type QueueState = (typeof queueStates)[number];
export const queueStateLabels: Record<QueueState, string> = { open: 'Open', appealed: 'Appealed', dismissed: 'Dismissed', actioned: 'Action taken' };

export const queueQuery = pageQuery.extend({
  state: z.enum(queueStates).default('open'),
  kind: z.enum(reportTargetKinds).optional(),
});
export type QueueQuery = z.infer<typeof queueQuery>;

export const queueReport = z.object({
  _id: z.string(),
  reason: z.enum(reportReasons),
  text: z.string(),
  state: z.enum(reportStates),
  reporter: z.object({ _id: z.string(), userName: z.string() }),
  createdAt: z.string(),
});

export const itemStates = ['visible', 'taken_down', 'deleted'] as const;

export const queueItem = z.object({
  targetKind: z.enum(reportTargetKinds),
  targetId: z.string(),
  target: targetContext,
  /** The whole text (tweet, comment) or the video's description. */
  text: z.string().nullable(),
  thumbnail: imageRef,
  owner: z
    .object({ _id: z.string(), userName: z.string(), fullName: z.string(), role: z.string(), state: z.string(), stateReason: z.string().nullable(), suspendedUntil: z.string().nullable() })
    .nullable(),
  itemState: z.enum(itemStates),
  takedown: takedownNotice.nullable(),
  /** Reports on the item in the filter's state (all of them for appealed items). */
  reportCount: z.number().int(),
  /** The newest of them (at most 20). */
  reports: z.array(queueReport),
  lastActivityAt: z.string(),
});
export type QueueItem = z.infer<typeof queueItem>;
export const queuePage = paged(queueItem);
export type QueuePage = z.infer<typeof queuePage>;

export const targetParams = z.object({ kind: z.enum(reportTargetKinds, { message: 'Invalid kind' }), id });
/** A body-less POST is fine: the reason is optional. */
export const optionalReasonBody = z
  .object({ reason: reasonText.optional() })
  .nullish()
  .transform((b) => b ?? {});
export const reasonBody = z.object({ reason: requiredReason });
export const userParams = z.object({ userId: id });
export const suspendBody = z.object({
  reason: requiredReason,
  /** ISO date-time; absent or null: until a moderator lifts it. */
  until: z.iso.datetime({ offset: true, message: 'Invalid date' }).nullable().optional(),
});
export type SuspendBody = z.infer<typeof suspendBody>;

export const moderationActions = [
  'dismiss',
  'take_down',
  'restore',
  'delete',
  'suspend',
  'unsuspend',
  'keep_removed',
  'registration.approve',
  'registration.reject',
  'role.user',
  'role.moderator',
  'role.admin',
  'account.delete',
] as const;
export type ModerationAction = (typeof moderationActions)[number];
export const moderationActionLabels: Record<ModerationAction, string> = {
  dismiss: 'Dismissed reports',
  take_down: 'Took down',
  restore: 'Restored',
  delete: 'Deleted',
  suspend: 'Suspended',
  unsuspend: 'Lifted suspension',
  keep_removed: 'Kept removed (appeal)',
  'registration.approve': 'Approved registration',
  'registration.reject': 'Rejected registration',
  'role.user': 'Role set to user',
  'role.moderator': 'Role set to moderator',
  'role.admin': 'Role set to admin',
  'account.delete': 'Deleted the account',
};

/** The log's action for a role change: `role.<the new role>`. */
export const roleAction = (role: Role): ModerationAction => `role.${role}`;

export const logEntry = z.object({
  _id: z.string(),
  /** null when no account acted (`fromCommandLine`) or the actor's account was deleted. */
  actor: z.object({ _id: z.string(), userName: z.string() }).nullable(),
  /** Taken with `npm run admin` on the server. */
  fromCommandLine: z.boolean(),
  targetKind: z.enum(reportTargetKinds),
  /** null once the target's account was deleted (the action stays on record). */
  targetId: z.string().nullable(),
  /**
   * Where the target is now, for a link, with its label: the live one while it exists, else what
   * it was called when the action was taken (null once its account was deleted).
   */
  target: targetContext,
  /** The target still exists (a link can lead to it). */
  targetExists: z.boolean(),
  action: z.string(),
  reason: z.string(),
  createdAt: z.string(),
});
export type LogEntry = z.infer<typeof logEntry>;
export const logPage = paged(logEntry);
export type LogPage = z.infer<typeof logPage>;
