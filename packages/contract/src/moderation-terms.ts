// Zod-free: the watch page's report menu and takedown notice use these on its first load (ADR 017).

/** What a logged-in user can report (issue #12 item 3). A channel report is acted on by suspending its account. */
export const userReportTargetKinds = ['video', 'comment', 'tweet', 'channel'] as const;
export type UserReportTargetKind = (typeof userReportTargetKinds)[number];
/**
 * What the moderation queue holds: the above, and a comment of a thread across servers
 * (`federatedComment`), reported by another server's `Flag` (issue #35). A local user reports a
 * remote comment to its own server instead (`POST /federation/reports`).
 */
export const reportTargetKinds = [...userReportTargetKinds, 'federatedComment'] as const;
export type ReportTargetKind = (typeof reportTargetKinds)[number];

/** What moderators can take down (content state, ARCHITECTURE §8). */
export const takedownKinds = ['video', 'comment', 'tweet'] as const;
export type TakedownKind = (typeof takedownKinds)[number];

export const reportReasons = ['spam', 'harassment', 'hateful', 'sexual', 'violent', 'copyright', 'other'] as const;
export type ReportReason = (typeof reportReasons)[number];
export const reportReasonLabels: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  hateful: 'Hateful content',
  sexual: 'Sexual content',
  violent: 'Violent content',
  copyright: 'Copyright',
  other: 'Other',
};

export const reportStates = ['open', 'dismissed', 'actioned'] as const;
export type ReportState = (typeof reportStates)[number];
export const reportStateLabels: Record<ReportState, string> = { open: 'Open', dismissed: 'Dismissed', actioned: 'Action taken' };

export const REPORT_TEXT_MAX = 1000;
export const MODERATION_REASON_MAX = 500;
