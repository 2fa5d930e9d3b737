import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../context.ts';
import { MEDIA_PATH } from './media-links.ts';
import { MediaService } from './media.service.ts';
import { sendStored } from './send-stored.ts';

/** Stored files at /media/...: every request passes MediaService's check (ADR 008). */
export const mediaRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { ctx }) => {
  const media = new MediaService(ctx);
  app.get(`${MEDIA_PATH}/*`, { schema: { hide: true } }, async (request, reply) => {
    const file = await media.resolve((request.params as { '*': string })['*']);
    return sendStored(ctx, request, reply, file.key, { 'cache-control': file.cacheControl });
  });
};
