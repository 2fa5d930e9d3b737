import { z } from 'zod';
import { imageRef } from './common.ts';
import { owner } from './users.ts';

/** A video as lists embed it (playlists, liked videos, subscriptions feed): spec §3 Video fields. */
export const videoCard = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  thumbnail: imageRef,
  duration: z.number(),
  views: z.number().int(),
  isPublished: z.boolean(),
  owner,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type VideoCard = z.infer<typeof videoCard>;
