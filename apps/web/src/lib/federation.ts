import { queryOptions } from '@tanstack/react-query';
import type { RemoteChannel, RemoteVideo } from '@glimpse/contract';
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
