import type { AuthUser, Channel, Owner } from '@glimpse/contract';
import type { Storage } from '../../storage/storage.ts';
import type { ChannelRow } from './channels.repository.ts';
import type { UserRow } from './users.repository.ts';

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
    role: u.role,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

/** The owner block embedded in videos, tweets, comments and playlists. */
export function toOwner(storage: Storage, u: Pick<UserRow, 'id' | 'userName' | 'fullName' | 'avatarKey'>): Owner {
  return { _id: u.id, userName: u.userName, fullName: u.fullName, avatar: imageRef(storage, u.avatarKey) };
}

/** A channel object (spec §3): the count under the spec's three names, the email only for its owner. */
export function toChannel(storage: Storage, c: ChannelRow, viewerId: string | null): Channel {
  return {
    _id: c.id,
    userName: c.userName,
    fullName: c.fullName,
    ...(c.id === viewerId ? { email: c.email } : {}),
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
