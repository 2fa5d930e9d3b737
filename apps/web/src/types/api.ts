/** Entity shapes the web app reads: the server's contract (spec §3 plus its additions). */
export type {
  Channel,
  ChannelStats,
  ChannelStatsResult,
  Comment,
  ImageRef,
  LikeStatus,
  Owner,
  Playlist,
  PlaylistSummary,
  SubscribedChannel,
  ToggleSubscriptionResult,
  Video,
  VideoResult,
} from '@glimpse/contract';
