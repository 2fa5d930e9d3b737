import type { AppContext } from '../../context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { isUuid } from '../../lib/ids.ts';
import { PUBLIC_IMAGE_FOLDERS, videoMediaPrefix } from '../../storage/media-keys.ts';
import { VideoCardsRepository } from '../videos/video-cards.repository.ts';
import { MEDIA_LINK_INVALID, MEDIA_NOT_FOUND, mediaSigner, parseCredential, PRIVATE_CACHE, PUBLIC_CACHE, type MediaSigner } from '../media-links/media-links.ts';

/** A path segment of a stored key: the names our keys use, never `.` or `..`. */
const SEGMENT = /^(?!\.{1,2}$)[\w.-]{1,200}$/;

export interface MediaFile {
  key: string;
  cacheControl: string;
}

/** Decides what a `/media/...` path may serve (ADR 011). */
export class MediaAccessService {
  private readonly cards: VideoCardsRepository;
  private readonly signer: MediaSigner;

  constructor(ctx: AppContext) {
    this.cards = new VideoCardsRepository(ctx.db);
    this.signer = mediaSigner(ctx.config);
  }

  /**
   * The stored file `path` (below /media/) names, if its credential allows it: a video's files with
   * its current public token while it is public (immutable caching) or a valid signed link (private,
   * no-store); public images by their key. Anything else, originals included, is not found.
   */
  async resolve(path: string): Promise<MediaFile> {
    const parts = path.split('/');
    if (!parts.every((p) => SEGMENT.test(p))) throw notFound(MEDIA_NOT_FOUND);
    const [folder, videoId = '', credentialSegment = '', ...rest] = parts;
    if ((PUBLIC_IMAGE_FOLDERS as readonly string[]).includes(folder!) && parts.length > 1) {
      return { key: parts.join('/'), cacheControl: PUBLIC_CACHE };
    }
    const credential = parseCredential(credentialSegment);
    if (folder !== 'videos' || !isUuid(videoId) || !credential || rest.length === 0) throw notFound(MEDIA_NOT_FOUND);
    const key = `${videoMediaPrefix(videoId)}/${rest.join('/')}`;
    if (credential.kind === 'signed') {
      if (!this.signer.verify(videoId, credential)) throw forbidden(MEDIA_LINK_INVALID);
      return { key, cacheControl: PRIVATE_CACHE };
    }
    if (!(await this.cards.isPublicMedia(videoId, credential.token))) throw notFound(MEDIA_NOT_FOUND);
    return { key, cacheControl: PUBLIC_CACHE };
  }
}
