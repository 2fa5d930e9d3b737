import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { oembedQuery, oembedResponse } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { EmbedsService } from './embeds.service.ts';

export const embedsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new EmbedsService(ctx);
  // oEmbed consumers read the bare oEmbed object, not the API envelope; errors keep the envelope.
  app.get('/oembed', { schema: { tags: ['embeds'], querystring: oembedQuery, response: { 200: oembedResponse } } }, async (request, reply) =>
    reply.send(await service.oembed(request.query)),
  );
};
