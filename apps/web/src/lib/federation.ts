import { queryOptions } from '@tanstack/react-query';
import type { ChannelRemoteBlock, RemoteChannel, RemoteVideo } from '@glimpse/contract';
import { api } from './api-client.ts';

/**
 * Channels of other servers (issue #35, docs/federation.md): what the search box, the Subscriptions
 * page and the remote channel page share.
 */

/** `@name@host`, `name@host` or an https address: what PeerTube and Mastodon take in their search boxes. */
export function isRemoteHandle(text: string): boolean {
  const s = text.trim();
  return /^@?[A-Za-z0-9\-_.:]{1,100}@[A-Za-z0-9.-]{1,253}\.[A-Za-z0-9.-]*[A-Za-z0-9](?::\d{1,5})?$|^@?[A-Za-z0-9\-_.:]{1,100}@[A-Za-z0-9.-]+:\d{1,5}$/.test(s) || /^https?:\/\/\S+$/i.test(s);
}

export const followRemote = async (handle: string) => (await api.post<RemoteChannel>('federation/follows', { handle: handle.trim() })).data;
export const unfollowRemote = (actorId: string) => api.delete<null>(`federation/follows/${actorId}`);

export const remoteChannelOptions = (actorId: string) =>
  queryOptions({
    queryKey: ['remote-channel', actorId],
    queryFn: async ({ signal }) => (await api.get<{ channel: RemoteChannel; videos: RemoteVideo[] }>(`federation/channels/${actorId}`, undefined, signal)).data,
  });

export const remoteVideoOptions = (videoId: string) =>
  queryOptions({
    queryKey: ['remote-video', videoId],
    queryFn: async ({ signal }) => (await api.get<{ video: RemoteVideo }>(`federation/videos/${videoId}`, undefined, signal)).data.video,
  });

/** The first page of videos from the remote channels the user follows (newest first). */
export const remoteFeedOptions = () =>
  queryOptions({
    queryKey: ['remote-feed'],
    queryFn: async ({ signal }) => (await api.get<{ videos: RemoteVideo[] }>('federation/feed', { limit: 24 }, signal)).data.videos,
  });

export interface FederatedComment {
  _id: string;
  uri: string;
  inReplyTo: string;
  content: string;
  held: boolean;
  author: { name: string; handle: string; host: string | null };
  publishedAt: string;
}

/** The comments across servers under a video (one of ours or a remote one). */
export const federatedThreadOptions = (videoId: string) =>
  queryOptions({
    queryKey: ['federated-thread', videoId],
    queryFn: async ({ signal }) => (await api.get<{ comments: FederatedComment[] }>('federation/comments', { video: videoId }, signal)).data.comments,
  });

export const commentOnRemote = (remoteVideoId: string, content: string) => api.post<{ _id: string }>(`federation/videos/${remoteVideoId}/comments`, { content });
export const replyToFederated = (commentId: string, content: string) => api.post<{ _id: string }>(`federation/comments/${commentId}/replies`, { content });

/** A comment's HTML (sanitised by the server) as plain text: shown as text, never as markup. */
export const htmlToText = (html: string): string => {
  const doc = new DOMParser().parseFromString(html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/p>\s*<p>/gi, '\n\n'), 'text/html');
  return doc.body.textContent ?? '';
};

/** The remote accounts the user's channel blocks (their Notes on its videos are not kept). */
export const remoteBlocksOptions = () =>
  queryOptions({
    queryKey: ['federation', 'channel-blocks'],
    queryFn: async ({ signal }) => (await api.get<{ blocks: ChannelRemoteBlock[] }>('federation/channel-blocks', undefined, signal)).data.blocks,
  });
export const blockRemote = async (handle: string) => (await api.post<ChannelRemoteBlock>('federation/channel-blocks', { handle })).data;
export const unblockRemote = (actorId: string) => api.delete<{ actorId: string }>(`federation/channel-blocks/${actorId}`);
