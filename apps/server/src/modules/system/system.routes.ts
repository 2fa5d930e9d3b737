import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';

/** Health and the public configuration the web app reads (size limits). */
export const systemRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get('/health', { schema: { tags: ['system'] } }, async (_req, reply) => ok(reply, { status: 'ok' }));

  app.get('/config', { schema: { tags: ['system'] } }, async (_req, reply) =>
    ok(reply, {
      limits: {
        videoMb: ctx.config.limits.videoMb,
        thumbnailMb: ctx.config.limits.thumbnailMb,
        imageMb: ctx.config.limits.imageMb,
        chunkBytes: 3 * 1024 * 1024,
      },
    }),
  );
};
