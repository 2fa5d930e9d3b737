import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

/** Size limits the server enforces (GET config), in MB; chunkBytes is the upload chunk. */
export interface UploadLimits {
  videoMb: number;
  thumbnailMb: number;
  imageMb: number;
  chunkBytes: number;
}

/** Used until GET config answers: the spec's values (§5: 50 for video, 15 for other files, 1 for thumbnails). */
export const DEFAULT_LIMITS: UploadLimits = { videoMb: 50, thumbnailMb: 1, imageMb: 15, chunkBytes: 3 * 1024 * 1024 };

export const limitsQueryOptions = queryOptions({
  queryKey: ['config', 'limits'],
  queryFn: ({ signal }) => api.get<{ limits: UploadLimits }>('config', undefined, signal).then((r) => r.data.limits),
  staleTime: Infinity,
});

export function useUploadLimits(): UploadLimits {
  return useQuery(limitsQueryOptions).data ?? DEFAULT_LIMITS;
}

export const IMAGE_TYPES = ['image/png', 'image/jpeg'];
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');

/** The message for a file that breaks the rules of spec §5, or null when it is fine. */
export function fileProblem(file: File, kind: 'image' | 'video', limitMb: number): string | null {
  if (kind === 'image' && !IMAGE_TYPES.includes(file.type)) return 'Only png and jpeg images are allowed';
  if (kind === 'video' && !isMp4(file)) return 'Only mp4 videos are allowed';
  if (file.size > limitMb * 1024 * 1024) return `File size should not exceed ${limitMb}MB`;
  return null;
}

export const isMp4 = (file: File) => file.type === 'video/mp4' || (file.type === '' && /\.mp4$/i.test(file.name));
