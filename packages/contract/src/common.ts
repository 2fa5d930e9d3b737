import { z } from 'zod';

/** Ids are UUIDs (v7) in `_id` fields. */
export const id = z.uuid({ message: 'Invalid id' });

/**
 * A comment's or tweet's review state: `held` when it contains a watched word, shown to its author
 * and its reviewer only until approved.
 */
export const reviewStates = ['published', 'held'] as const;
export const reviewState = z.enum(reviewStates);
export type ReviewState = z.infer<typeof reviewState>;

export const imageRef = z.object({ url: z.string() }).nullable();

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  /** Opaque keyset cursor returned with each page; when given, `page` is ignored. */
  cursor: z.string().max(512).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** Every successful answer. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({
    statusCode: z.number().int(),
    data,
    message: z.string(),
    success: z.literal(true),
  });
}

/** A success answer that only carries its message. */
export const messageOnly = envelope(z.null());

export const errorEnvelope = z.object({
  statusCode: z.number().int(),
  data: z.record(z.string(), z.unknown()).nullable(),
  message: z.string(),
  success: z.literal(false),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export interface ApiEnvelope<T> {
  statusCode: number;
  data: T;
  message: string;
  success: true;
}

/** A page of spec §7's "data list": the items at `data`, the cursor for the next page (null at the end) beside them. */
export function paged<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    page: z.number().int(),
    limit: z.number().int(),
    hasNextPage: z.boolean(),
    nextCursor: z.string().nullable(),
  });
}

export const API_PREFIX = '/api/v1';
export type ImageRef = z.infer<typeof imageRef>;
