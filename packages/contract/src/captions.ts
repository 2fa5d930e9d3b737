import { z } from 'zod';
import { id } from './common.ts';
import { oneLine } from './text.ts';

/** Largest caption file accepted (SRT or WebVTT, before conversion). */
export const CAPTION_MAX_BYTES = 512 * 1024;
/** Languages one video may carry captions for. */
export const CAPTION_MAX_LANGUAGES = 20;
export const CAPTION_LABEL_MAX = 60;
/** A BCP 47 language tag, sanely: `en`, `pt-BR`, `zh-Hant-TW`, `es-419`. */
export const CAPTION_LANG = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,4}$/;

export const captionMessages = {
  invalidLang: 'Language must be a BCP 47 tag such as en or pt-BR',
  labelRequired: 'Label is required',
  fileRequired: 'Send the caption file in the file field (SRT or WebVTT)',
  tooMany: `A video can have captions in at most ${CAPTION_MAX_LANGUAGES} languages`,
  notFound: 'No captions in this language',
  saved: 'Captions saved',
  deleted: 'Captions deleted',
  listed: 'Captions fetched successfully',
} as const;

/** `en-us` and `EN-US` name the same language: stored as `en-US` (language lower, region upper, script title). */
export function normaliseLang(tag: string): string {
  return tag
    .split('-')
    .map((part, i) => {
      if (i === 0) return part.toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      if (part.length === 4) return part[0]!.toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}

export const captionParams = z.object({
  id,
  lang: z.string().regex(CAPTION_LANG, captionMessages.invalidLang).transform(normaliseLang),
});

export const captionLabel = oneLine({ message: captionMessages.labelRequired }).min(1, captionMessages.labelRequired).max(CAPTION_LABEL_MAX, `Label must be at most ${CAPTION_LABEL_MAX} characters`);

/** POST videos/{id}/captions/{lang} as JSON: the caption file's text (SRT or WebVTT) and its label. */
export const captionJsonBody = z.object({
  label: captionLabel,
  text: z.string({ message: captionMessages.fileRequired }).max(CAPTION_MAX_BYTES, `Caption file must be at most ${CAPTION_MAX_BYTES / 1024} KB`),
});

/** One caption track as the video answer and the captions list carry it: the WebVTT file's URL follows the video's media rules. */
export const videoCaption = z.object({
  lang: z.string(),
  label: z.string(),
  url: z.string().nullable(),
});
export type VideoCaption = z.infer<typeof videoCaption>;

export const captionList = z.object({ captions: z.array(videoCaption) });
export type CaptionList = z.infer<typeof captionList>;
