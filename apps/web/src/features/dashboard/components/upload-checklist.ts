import { TITLE_MAX } from '@glimpse/contract';
import { getLocale, t, type MessageKey } from '@/lib/i18n/i18n.ts';

/**
 * A title from a video's file name: without its extension, separators (_ . - + and runs of
 * spaces) as single spaces, within the title limit. `IMG_2024-05-01_beach.mp4` -> `IMG 2024 05 01 beach`.
 */
export function titleFromFileName(name: string, max = TITLE_MAX): string {
  const base = name.replace(/\.[^.\s]{1,8}$/, '');
  const words = base.replace(/[\s_.+-]+/g, ' ').trim();
  let cut = words.slice(0, max);
  // Never end on half a surrogate pair (an emoji cut in two).
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.trim();
}

/** What the upload needs before anything is sent (spec §5: thumbnail, title and description, non-blank). */
export interface UploadDraft {
  file: unknown;
  thumbnail: unknown;
  title: string;
  description: string;
}

export type MissingField = 'video' | 'thumbnail' | 'title' | 'description';

/** What is still missing, in the form's order. */
export function missingFields(draft: UploadDraft): MissingField[] {
  const missing: MissingField[] = [];
  if (!draft.file) missing.push('video');
  if (!draft.thumbnail) missing.push('thumbnail');
  if (!draft.title.trim()) missing.push('title');
  if (!draft.description.trim()) missing.push('description');
  return missing;
}

const NEEDS: Record<MissingField, MessageKey> = {
  video: 'upload.needVideo',
  thumbnail: 'upload.needThumbnail',
  title: 'upload.needTitle',
  description: 'upload.needDescription',
};

/** The sentence under the form: what to do before Upload works, or that it is ready. */
export function missingHint(missing: MissingField[]): string {
  if (missing.length === 0) return t('upload.ready');
  const list = new Intl.ListFormat(getLocale(), { style: 'long', type: 'conjunction' }).format(missing.map((m) => t(NEEDS[m])));
  return t('upload.missing', { list });
}
