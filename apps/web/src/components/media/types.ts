/**
 * Shapes of the API answers the media components show (spec §3). Local mirrors of the
 * server's contract; fields a screen does not read are left out.
 */
export type ImageRef = { url: string } | null;

export interface Owner {
  _id: string;
  userName: string;
  fullName: string;
  avatar: ImageRef;
}

export type VideoStatus = 'processing' | 'ready' | 'failed';

export interface VideoSummary {
  _id: string;
  title: string;
  description: string;
  thumbnail: ImageRef;
  duration: number;
  views: number;
  isPublished: boolean;
  createdAt: string;
  updatedAt: string;
  owner: Owner;
  /** Present on the owner's own lists. */
  status?: VideoStatus;
  progress?: number;
}

export interface PlaylistSummary {
  _id: string;
  name: string;
  description: string;
  noOfVideos: number;
  /** First video (the PLAY ALL target), null when the playlist is empty. */
  videoId: string | null;
  thumbnail: ImageRef;
  owner: { userName: string; fullName: string };
  createdAt: string;
  updatedAt: string;
}

export type LikeStatus = 1 | -1 | 0;

export interface Tweet {
  _id: string;
  content: string;
  image: ImageRef;
  likes: number;
  dislikes: number;
  comments: number;
  likeStatus: LikeStatus;
  owner: Owner;
  createdAt: string;
  updatedAt: string;
}

export interface Channel {
  _id: string;
  userName: string;
  fullName: string;
  avatar: ImageRef;
  coverImage: ImageRef;
  subscriberCount: number;
  videoCount: number;
  isSubscribed: boolean;
}
