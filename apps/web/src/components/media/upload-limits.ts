import { useQuery } from '@tanstack/react-query';
import { VIDEO_UPLOAD } from '@glimpse/contract';
import { getLocale, t } from '@/lib/i18n/i18n.ts';
import { configQueryOptions, type PublicConfig } from '@/lib/public-config.ts';

/** Size limits the server enforces (GET config), in MB; chunkBytes is the upload chunk. */
export type UploadLimits = PublicConfig['limits'];

/** Used until GET config answers: the spec's values (§5: 50 for video, 15 for other files, 1 for thumbnails). */
export const DEFAULT_LIMITS: UploadLimits = { videoMb: 50, thumbnailMb: 1, imageMb: 15, chunkBytes: 3 * 1024 * 1024 };

/** Whether this server can process videos at all (GET config), and why not. */
export type UploadAvailability = PublicConfig['uploads'];

export function useUploadLimits(): UploadLimits {
  return useQuery(configQueryOptions).data?.limits ?? DEFAULT_LIMITS;
}

/** Until GET config answers, uploads are taken to work (the server refuses them clearly if not). */
export function useUploadAvailability(): UploadAvailability {
  return useQuery(configQueryOptions).data?.uploads ?? { available: true };
}

export const IMAGE_TYPES = ['image/png', 'image/jpeg'];
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');

/** The message (in the active language; the spec's English in English) for a file that breaks the rules of spec §5, or null when it is fine. */
export function fileProblem(file: File, kind: 'image' | 'video', limitMb: number): string | null {
  if (kind === 'image' && !IMAGE_TYPES.includes(file.type)) return t('files.onlyImages');
  if (kind === 'video' && !isVideoFile(file)) return t('files.notVideo', { types: videoTypesText() });
  if (file.size > limitMb * 1024 * 1024) return t('files.tooBig', { mb: limitMb });
  return null;
}

/** The video file types as a list in the active language ("mp4, mov, … or 3gp"; English keeps the contract's wording). */
export function videoTypesText(): string {
  const locale = getLocale();
  return locale === 'en' ? VIDEO_UPLOAD.text : new Intl.ListFormat(locale, { type: 'disjunction' }).format(VIDEO_UPLOAD.extensions);
}

export const VIDEO_ACCEPT = [...VIDEO_UPLOAD.mimeTypes, ...VIDEO_UPLOAD.extensions.map((e) => `.${e}`)].join(',');

/** By type, or by name when the browser knows no type for it (mkv often has none); the server checks the content. */
export function isVideoFile(file: File): boolean {
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return (VIDEO_UPLOAD.mimeTypes as readonly string[]).includes(file.type) || (VIDEO_UPLOAD.extensions as readonly string[]).includes(ext);
}
