import { z } from 'zod';

export * from './embed-code.ts';

/** The smallest frame an oEmbed consumer can ask for: below it the controls do not fit. */
export const EMBED_MIN_WIDTH = 200;

export const embedMessages = {
  invalidUrl: 'url must be an absolute http(s) URL',
  notFound: 'No embeddable video at this URL',
  xmlUnsupported: 'Only format=json is supported',
} as const;

const size = z.coerce.number().int().min(1).max(10_000).optional();

/** GET oembed (oEmbed 1.0 §2.2): the watch page's URL and the consumer's size limits. */
export const oembedQuery = z.object({
  url: z.string().trim().min(1, embedMessages.invalidUrl).max(2048),
  format: z.enum(['json', 'xml']).default('json'),
  maxwidth: size,
  maxheight: size,
});
export type OembedQuery = z.infer<typeof oembedQuery>;

/** The oEmbed 1.0 `video` answer (plain JSON, not the API envelope: oEmbed consumers read it as such). */
export const oembedResponse = z.object({
  version: z.literal('1.0'),
  type: z.literal('video'),
  provider_name: z.string(),
  provider_url: z.string(),
  title: z.string(),
  author_name: z.string(),
  author_url: z.string(),
  html: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  thumbnail_url: z.string().optional(),
  thumbnail_width: z.number().int().optional(),
  thumbnail_height: z.number().int().optional(),
});
export type OembedResponse = z.infer<typeof oembedResponse>;
