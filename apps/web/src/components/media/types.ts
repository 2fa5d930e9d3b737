/** Shapes of the API answers the media components show: the server's contract (spec §3). */
import type { Video, VideoCard } from '@glimpse/contract';

export type { Channel, ImageRef, LikeStatus, Owner, PlaylistSummary, Tweet } from '@glimpse/contract';
export type VideoStatus = Video['status'];
/** A video card; the owner's own lists also carry the processing state. */
export type VideoSummary = VideoCard & Partial<Pick<Video, 'status' | 'progress' | 'privacy'>>;
