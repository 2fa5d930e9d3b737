import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PublicInstance } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';

/** Health and the public configuration the web app reads (size limits). */
export const systemRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get('/health', { schema: { tags: ['system'] } }, async (_req, reply) => {
    const media = await ctx.media.status();
    return ok(reply, { status: 'ok', media: { engine: media.engine, version: media.version, usable: media.problems.length === 0, problems: media.problems } });
  });

  app.get('/config', { schema: { tags: ['system'] } }, async (_req, reply) => {
    const reason = await ctx.media.unavailableReason();
    const { name, description, registrationMode, maxVideoMinutes } = await ctx.settings.get();
    return ok(reply, {
      instance: { name, description, registrationMode, maxVideoMinutes } satisfies PublicInstance,
      // The dashboard says why uploads cannot work here instead of letting them fail.
      uploads: { available: reason === undefined, ...(reason ? { reason } : {}) },
      limits: {
        videoMb: ctx.config.limits.videoMb,
        thumbnailMb: ctx.config.limits.thumbnailMb,
        imageMb: ctx.config.limits.imageMb,
        chunkBytes: 3 * 1024 * 1024,
      },
    });
  });
};
