import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../context.ts';
import { MEDIA_PATH } from './media-links.ts';
import { MediaAccessService } from './media-access.service.ts';
import { sendStored } from './send-stored.ts';

/** Stored files at /media/...: every request passes MediaAccessService's check (ADR 011). */
export const mediaAccessRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { ctx }) => {
  const media = new MediaAccessService(ctx);
  app.get(`${MEDIA_PATH}/*`, { schema: { hide: true } }, async (request, reply) => {
    const file = await media.resolve((request.params as { '*': string })['*']);
    return sendStored(ctx, request, reply, file.key, { 'cache-control': file.cacheControl });
  });
};
