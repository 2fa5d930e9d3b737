import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../context.ts';
import { contentTypeOf } from '../../storage/content-types.ts';
import { CaptionsService } from '../captions/captions.service.ts';
import { MEDIA_PATH, PLAYLIST_PUBLIC_CACHE, PUBLIC_CACHE } from '../media-links/media-links.ts';
import { MediaAccessService } from './media-access.service.ts';
import { sendStored } from '../media-links/send-stored.ts';

/** Stored files at /media/...: every request passes MediaAccessService's check (ADR 011). */
export const mediaAccessRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { ctx }) => {
  const media = new MediaAccessService(ctx);
  const captions = new CaptionsService(ctx);
  app.get(`${MEDIA_PATH}/*`, { schema: { hide: true } }, async (request, reply) => {
    const file = await media.resolve((request.params as { '*': string })['*']);
    // The master playlist (with the captions' subtitle renditions) and subtitle playlists are
    // written per request: they change when captions do, so they are revalidated, never immutable.
    const playlist = await captions.playlist(file.key);
    if (playlist === null) return sendStored(ctx, request, reply, file.key, { 'cache-control': file.cacheControl });
    const etag = `"${createHash('sha256').update(playlist).digest('base64url').slice(0, 27)}"`;
    reply
      .header('cache-control', file.cacheControl === PUBLIC_CACHE ? PLAYLIST_PUBLIC_CACHE : file.cacheControl)
      .header('content-type', contentTypeOf(file.key))
      .header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(playlist);
  });
};
