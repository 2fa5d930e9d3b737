/**
 * Entity shapes the web app reads (spec §3 plus the server's additions). The zod
 * contracts for videos, playlists and comments land with the API branches; until the
 * lead reconciles them these mirror the spec's fields.
 */
export type ImageRef = { url: string } | null;

export interface Owner {
  _id: string;
  userName: string;
  fullName: string;
  avatar: ImageRef;
}

export type LikeStatus = 1 | -1 | 0;

export interface Video {
  _id: string;
  title: string;
  description: string;
  thumbnail: ImageRef;
  videoFile?: { publicId?: string; url: string | null };
  storyboard?: ImageRef;
  duration: number;
  views: number;
  createdAt: string;
  updatedAt: string;
  isPublished: boolean;
  status?: 'processing' | 'ready' | 'failed';
  progress?: number;
  likes?: number;
  dislikes?: number;
  likeStatus?: LikeStatus;
  isSubscribed?: boolean;
  subscribers?: number;
  noOfComments?: number;
  /** Last playback position, when the answer comes from watch history. */
  position?: number;
  owner: Owner;
}

export interface PlaylistSummary {
  _id: string;
  name: string;
  description?: string;
  noOfVideos: number;
  videoId: string | null;
  thumbnail: ImageRef;
  owner: Pick<Owner, 'userName' | 'fullName'> & Partial<Owner>;
  videoStatus?: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Playlist extends PlaylistSummary {
  videos: Video[];
}

export interface ChannelSummary {
  _id: string;
  userName: string;
  fullName: string;
  avatar: ImageRef;
  subscriberCount?: number;
  subscribers?: number;
  videoCount?: number;
  isSubscribed?: boolean;
}

export interface Comment {
  _id: string;
  content: string;
  owner: Owner;
  replies: number;
  likes: number;
  dislikes: number;
  likeStatus: LikeStatus;
  parentId?: string | null;
  createdAt: string;
  updatedAt: string;
}
