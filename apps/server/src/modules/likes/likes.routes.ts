import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { likeMessages, likeParams, pageQuery } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { loginFirst, requireViewer } from '../../identity/viewer.ts';
import { LikesService } from './likes.service.ts';

export const likesRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new LikesService(ctx);
  const schema = { tags: ['likes'], security: [{ bearer: [] }] };

  const reactions = [
    { action: 'like', value: 1, done: 'Liked successfully', undone: 'Like removed successfully' },
    { action: 'dislike', value: -1, done: 'Disliked successfully', undone: 'Dislike removed successfully' },
  ] as const;
  for (const { action, value, done, undone } of reactions) {
    app.post(`/likes/:entityType/:entityId/${action}`, { schema: { ...schema, params: likeParams }, onRequest: loginFirst(likeMessages.loginRequired) }, async (request, reply) => {
      const viewer = requireViewer(request, likeMessages.loginRequired);
      const { entityType, entityId } = request.params;
      const result = await service.react(viewer.id, entityType, entityId, value);
      return ok(reply, result, result.likeStatus === 0 ? undone : done);
    });
  }

  app.get('/likes/video', { schema: { ...schema, querystring: pageQuery } }, async (request, reply) => {
    const viewer = requireViewer(request, 'Please login to view your liked videos');
    return ok(reply, await service.likedVideos(viewer.id, request.query), 'Liked videos fetched successfully');
  });
};
