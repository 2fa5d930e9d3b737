import { z } from 'zod';
import { imageRef } from './common.ts';
import { messages, NAME_MAX, USERNAME_MAX } from './auth.ts';
import { oneLine } from './text.ts';

export const updateMeBody = z.object({
  _id: z.string().optional(),
  fullName: oneLine().min(1, messages.fullNameRequired).max(NAME_MAX, `Full name must be at most ${NAME_MAX} characters`),
  userName: z
    .string()
    .trim()
    .min(1, messages.userNameRequired)
    .max(USERNAME_MAX, `User name must be at most ${USERNAME_MAX} characters`)
    .transform((u) => u.replace(/^@/, '').toLowerCase())
    .pipe(z.string().regex(/^[a-z0-9_.-]+$/, 'User name may use letters, digits, dot, dash and underscore only')),
});
export type UpdateMeBody = z.infer<typeof updateMeBody>;

/** A channel as others see it: never the owner's email. */
export const channel = z.object({
  _id: z.string(),
  userName: z.string(),
  fullName: z.string(),
  avatar: imageRef,
  coverImage: imageRef,
  subscriberCount: z.number().int(),
  subscribers: z.number().int(),
  totalSubscribers: z.number().int(),
  videoCount: z.number().int(),
  isSubscribed: z.boolean(),
  createdAt: z.string(),
});
export type Channel = z.infer<typeof channel>;

export const owner = z.object({
  _id: z.string(),
  userName: z.string(),
  fullName: z.string(),
  avatar: imageRef,
});
export type Owner = z.infer<typeof owner>;

export const userNameParam = z.object({ userName: z.string().min(1).max(USERNAME_MAX + 1) });

/** The 409 answer of PATCH users/me carries a free user name close to the one asked for. */
export const userNameTakenData = z.object({ availableUserName: z.string() });

/**
 * Documents the multipart upload of avatar and cover (field `image`, png or jpeg) in OpenAPI.
 * The server reads the parts as a stream, so the parsed body itself is empty.
 */
export const imageUploadBody = z
  .object({ image: z.any().meta({ type: 'string', format: 'binary', description: 'png or jpeg image' }) })
  .nullish();
