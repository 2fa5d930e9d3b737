/** Entity shapes the web app reads: the server's contract (spec §3 plus its additions). */
export type {
  Comment,
  ImageRef,
  LikeStatus,
  Owner,
  Playlist,
  PlaylistSummary,
  Video,
} from '@glimpse/contract';
import type { Channel } from '@glimpse/contract';

/** A channel as search results and lists show it. */
export type ChannelSummary = Pick<Channel, '_id' | 'userName' | 'fullName' | 'avatar'> &
  Partial<Pick<Channel, 'subscriberCount' | 'subscribers' | 'videoCount' | 'isSubscribed'>>;
