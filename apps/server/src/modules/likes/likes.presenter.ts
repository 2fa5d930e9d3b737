import type { LikeStatus } from '@glimpse/contract';

/** A stored reaction (or none) as the likeStatus field shows it. */
export const toLikeStatus = (value: number | null | undefined): LikeStatus => (value === 1 ? 1 : value === -1 ? -1 : 0);
