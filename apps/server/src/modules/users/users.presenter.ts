import type { AuthUser, Channel, Owner } from '@glimpse/contract';
import type { Storage } from '../../storage/storage.ts';
import type { ChannelRow, UserRow } from './users.repository.ts';

export const imageRef = (storage: Storage, key: string | null) => (key ? { url: storage.url(key) } : null);

/** The user as they see themselves (with email); never sent about someone else. */
export function toAuthUser(storage: Storage, u: UserRow): AuthUser {
  return {
    _id: u.id,
    userName: u.userName,
    fullName: u.fullName,
    email: u.email,
    avatar: imageRef(storage, u.avatarKey),
    coverImage: imageRef(storage, u.coverKey),
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

/** The owner block embedded in videos, tweets, comments and playlists. */
export function toOwner(storage: Storage, u: Pick<UserRow, 'id' | 'userName' | 'fullName' | 'avatarKey'>): Owner {
  return { _id: u.id, userName: u.userName, fullName: u.fullName, avatar: imageRef(storage, u.avatarKey) };
}

/** A channel as anyone sees it; the subscriber count goes by the three names the spec uses. */
export function toChannel(storage: Storage, c: ChannelRow): Channel {
  return {
    _id: c.id,
    userName: c.userName,
    fullName: c.fullName,
    avatar: imageRef(storage, c.avatarKey),
    coverImage: imageRef(storage, c.coverKey),
    subscriberCount: c.subscriberCount,
    subscribers: c.subscriberCount,
    totalSubscribers: c.subscriberCount,
    videoCount: c.videoCount,
    isSubscribed: c.isSubscribed,
    createdAt: c.createdAt.toISOString(),
  };
}
