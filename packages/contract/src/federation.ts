import { z } from 'zod';
import { id } from './common.ts';
import { REPORT_TEXT_MAX, reportReasons } from './moderation-terms.ts';

/** Federation (issue #35, ADR 023): following channels of other servers and reading their videos. */
export const federationMessages = {
  loginRequired: 'Please login to follow a remote channel',
  badHandle: 'Enter a remote channel as @name@host or as its address',
  notFound: 'Remote channel not found',
  unreachable: 'The remote server could not be reached',
  local: 'This channel is on this server: subscribe to it here',
  disabled: 'Federation is turned off on this server',
  blocked: 'This server or account is blocked here',
  badBlockTarget: 'Enter a host (example.org), a remote account (@name@host) or its address',
  blockNotFound: 'No such block',
  unknownAccount: 'This remote account is not known here',
  videoNotFound: 'Remote video not found',
  hostNotAllowed: 'This host is not on the allow-list',
  commentNotFound: 'Comment not found',
  commentsOff: 'Comments are turned off for this video',
  badComment: 'A comment needs between 1 and 5000 characters',
  alreadyReported: 'You already reported this',
  reportTargetNotFound: 'Remote video or comment not found',
  notBlocked: 'This account is not blocked',
} as const;

/** What an admin blocks: a host, or a remote account by handle or address. */
export const federationBlockBody = z.object({ target: z.string().trim().min(3).max(300) });
export const federationBlockQuery = z.object({ target: z.string().trim().min(1).max(2000) });
export const federationBlock = z.object({ target: z.string(), kind: z.enum(['host', 'actor']), createdAt: z.string() });
export type FederationBlock = z.infer<typeof federationBlock>;

/** A report on a remote video or a remote account's comment, forwarded to its server as a `Flag`. */
export const remoteReportBody = z.object({
  targetKind: z.enum(['video', 'comment']),
  targetId: id,
  reason: z.enum(reportReasons),
  text: z.string().trim().max(REPORT_TEXT_MAX).optional(),
});
export type RemoteReportBody = z.infer<typeof remoteReportBody>;

/** A channel owner's block of a remote account (`@name@host` or its address, known here). */
export const channelRemoteBlockBody = z.object({ handle: z.string().trim().min(3).max(300) });
export const channelRemoteBlock = z.object({ actorId: z.string(), handle: z.string(), name: z.string(), blockedAt: z.string() });
export type ChannelRemoteBlock = z.infer<typeof channelRemoteBlock>;

/** `@name@host`, `name@host` or the actor's https address, as PeerTube and Mastodon take it in their search boxes. */
export const followRemoteBody = z.object({ handle: z.string().trim().min(3).max(300) });
export const remoteActorParams = z.object({ actorId: id });
export const remoteVideoParams = z.object({ videoId: id });
/** A like or dislike of a remote video, sent to its server as Like/Dislike ('none' withdraws it with Undo). */
export const rateRemoteBody = z.object({ rating: z.enum(['like', 'dislike', 'none']) });

export const remoteChannel = z.object({
  _id: z.string(),
  handle: z.string(),
  name: z.string(),
  summary: z.string(),
  host: z.string(),
  url: z.string().nullable(),
  avatar: z.object({ url: z.string() }).nullable(),
  following: z.enum(['none', 'pending', 'accepted']),
});
export type RemoteChannel = z.infer<typeof remoteChannel>;

/** A video of another server: metadata only, played from its origin ("from host"). */
export const remoteVideo = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  duration: z.number(),
  thumbnail: z.object({ url: z.string() }).nullable(),
  hlsUrl: z.string().nullable(),
  originalUrl: z.string(),
  fromHost: z.string(),
  channel: remoteChannel.pick({ _id: true, handle: true, name: true, host: true }),
  publishedAt: z.string(),
});
export type RemoteVideo = z.infer<typeof remoteVideo>;

export const federatedCommentParams = z.object({ commentId: id });
export const federatedCommentBody = z.object({ content: z.string().max(5000) });
export const federatedThreadQuery = z.object({ video: id });

/** Open federation (every server but the blocked ones) or an allow-list (only the hosts listed). */
export const federationPolicyBody = z.object({ mode: z.enum(['open', 'allowlist']) });
export const allowedHostBody = z.object({ host: z.string().trim().toLowerCase().regex(/^[a-z0-9.-]{1,253}(:\d{1,5})?$/, 'Enter a host such as example.org') });
export const allowedHostQuery = z.object({ host: z.string().trim().toLowerCase().min(1).max(260) });
