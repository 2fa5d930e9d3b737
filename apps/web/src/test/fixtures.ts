import type { Channel, Comment, Video } from '@/types/api.ts';
import type { DashboardVideo } from '@/features/dashboard/api/dashboard-api.ts';
import { session } from '@/lib/session.ts';

export const owner = { _id: 'o1', userName: 'ada', fullName: 'Ada Lovelace', avatar: null };

/** The account most screen tests sign in as, as users/me answers it. */
export const ada = { _id: 'u-ada', userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, coverImage: null };

/** One of ada's videos as her dashboard lists it. */
export function makeDashboardVideo(over: Partial<DashboardVideo> = {}): DashboardVideo {
  return {
    _id: 'v1',
    title: 'Cats',
    description: 'About cats',
    thumbnail: null,
    duration: 10,
    views: 5,
    likes: 2,
    dislikes: 0,
    isPublished: false,
    status: 'ready',
    progress: 1,
    createdAt: '2024-03-05T10:00:00.000Z',
    updatedAt: '2024-03-05T10:00:00.000Z',
    owner: { _id: ada._id, userName: ada.userName, fullName: ada.fullName, avatar: null },
    ...over,
  };
}

/** The app under test starts signed in as `user`: an access token and the stored user. */
export function signInAs(user: { _id: string; userName: string; fullName: string; email: string } = ada) {
  session.setAccessToken('T');
  session.setUser({ userId: user._id, userName: user.userName, fullName: user.fullName, email: user.email, avatar: null, cover: null });
}

export function makeVideo(i: number, over: Partial<Video> = {}): Video {
  return {
    _id: `v${i}`,
    title: `Video ${i}`,
    description: `About video ${i}`,
    thumbnail: { url: `/media/t${i}.jpg` },
    poster: { url: `/media/t${i}.jpg` },
    videoFile: { publicId: `v${i}`, url: `/media/v${i}/master.m3u8` },
    storyboard: null,
    duration: 125,
    width: 1280,
    height: 720,
    views: 1000 * i,
    createdAt: new Date(Date.now() - 3600_000).toISOString(),
    updatedAt: new Date().toISOString(),
    isPublished: true,
    privacy: 'public',
    publishAt: null,
    downloadsEnabled: false,
    status: 'ready',
    progress: 1,
    failureReason: null,
    renditions: [
      { name: '240p', ready: true },
      { name: '720p', ready: true },
    ],
    likes: 3,
    dislikes: 1,
    likeStatus: 0,
    isSubscribed: false,
    subscribers: 10,
    noOfComments: 0,
    commentsEnabled: true,
    owner,
    ...over,
  };
}

/** A channel object as the server sends it (spec §3: the count under three names). */
export function makeChannel(over: Partial<Channel> = {}): Channel {
  const count = over.subscriberCount ?? 0;
  return {
    _id: 'c1',
    userName: 'bob',
    fullName: 'Bob Cat',
    avatar: null,
    coverImage: null,
    subscriberCount: count,
    subscribers: count,
    totalSubscribers: count,
    videoCount: 0,
    isSubscribed: false,
    createdAt: new Date().toISOString(),
    ...over,
  };
}

/** A published top-level comment on video v1 (override what the test is about). */
export function makeComment(id: string, over: Partial<Comment> = {}): Comment {
  return {
    _id: id,
    content: `text ${id}`,
    owner: { _id: 'u1', userName: 'ada', fullName: 'Ada', avatar: null },
    state: 'published',
    pinned: false,
    replies: 0,
    likes: 0,
    dislikes: 0,
    likeStatus: 0,
    entityType: 'video',
    entityId: 'v1',
    parentId: null,
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
    ...over,
  };
}

/** IntersectionObserver that reports every observed element as visible at once. */
export function visibleIntersectionObserver() {
  return class {
    private cb: IntersectionObserverCallback;
    constructor(cb: IntersectionObserverCallback) {
      this.cb = cb;
    }
    observe(el: Element) {
      queueMicrotask(() => this.cb([{ isIntersecting: true, target: el } as IntersectionObserverEntry], this as unknown as IntersectionObserver));
    }
    disconnect() {}
    unobserve() {}
  };
}
