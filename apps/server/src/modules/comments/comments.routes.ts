import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  commentBody,
  commentIdParams,
  commentMessages,
  commentsQuery,
  pageQuery,
  createCommentParams,
  entityCommentsParams,
  repliesParams,
} from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { rateLimited } from '../../lib/rate-limit.ts';
import { ok } from '../../lib/reply.ts';
import { loginFirst, requireViewer } from '../../identity/viewer.ts';
import { CommentsService } from './comments.service.ts';

export const commentsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new CommentsService(ctx);
  const schema = { tags: ['comments'], security: [{ bearer: [] }] };
  const login = loginFirst(commentMessages.loginRequired);

  app.post(
    '/comments/:entityType/:entityId/:parentId?',
    // A live's chat invites a flood: one client's comments are bounded like the other writes others read.
    { schema: { ...schema, params: createCommentParams, body: commentBody }, onRequest: login, config: rateLimited(ctx.config, 'comment') },
    async (request, reply) => {
      const viewer = requireViewer(request, commentMessages.loginRequired);
      const { entityType, entityId, parentId } = request.params;
      const comment = await service.create(viewer.id, entityType, entityId, parentId, request.body.content);
      return ok(reply, comment, comment.state === 'held' ? commentMessages.held : commentMessages.added, 201);
    },
  );

  // The review queue: held comments on the caller's videos and tweets (static, so never a comment id).
  app.get('/comments/held', { schema: { ...schema, querystring: pageQuery }, onRequest: login }, async (request, reply) => {
    const viewer = requireViewer(request, commentMessages.loginRequired);
    return ok(reply, await service.held(viewer.id, request.query), commentMessages.heldFetched);
  });

  // The static video/tweet routes answer top-level comments; three segments address a reply list
  // (find-my-way prefers static segments, and routes differ in length, so they never shadow each other).
  for (const type of ['video', 'tweet', 'live'] as const) {
    app.get(
      `/comments/${type}/:entityId`,
      { schema: { ...schema, params: entityCommentsParams, querystring: commentsQuery } },
      async (request, reply) => {
        const data = await service.list(type, request.params.entityId, null, request.viewer?.id ?? null, request.query);
        return ok(reply, data, 'Comments fetched successfully');
      },
    );
  }

  app.get(
    '/comments/:entityType/:entityId/:parentCommentId',
    { schema: { ...schema, params: repliesParams, querystring: commentsQuery } },
    async (request, reply) => {
      const { entityType, entityId, parentCommentId } = request.params;
      const data = await service.list(entityType, entityId, parentCommentId, request.viewer?.id ?? null, request.query);
      return ok(reply, data, 'Replies fetched successfully');
    },
  );

  app.patch(
    '/comments/:commentId',
    { schema: { ...schema, params: commentIdParams, body: commentBody }, onRequest: login },
    async (request, reply) => {
      const viewer = requireViewer(request, commentMessages.loginRequired);
      const comment = await service.update(viewer.id, request.params.commentId, request.body.content);
      return ok(reply, comment, comment.state === 'held' ? commentMessages.held : commentMessages.updated);
    },
  );

  app.delete('/comments/:commentId', { schema: { ...schema, params: commentIdParams }, onRequest: login }, async (request, reply) => {
    const viewer = requireViewer(request, commentMessages.loginRequired);
    return ok(reply, await service.remove(viewer.id, request.params.commentId), commentMessages.deleted);
  });

  // Creator moderation: the owner of the video or tweet approves held comments and pins one.
  app.post('/comments/:commentId/approve', { schema: { ...schema, params: commentIdParams }, onRequest: login }, async (request, reply) => {
    const viewer = requireViewer(request, commentMessages.loginRequired);
    return ok(reply, await service.approve(viewer.id, request.params.commentId), commentMessages.approved);
  });

  for (const [method, pinned] of [['POST', true], ['DELETE', false]] as const) {
    app.route({
      method,
      url: '/comments/:commentId/pin',
      schema: { ...schema, params: commentIdParams },
      onRequest: login,
      handler: async (request, reply) => {
        const viewer = requireViewer(request, commentMessages.loginRequired);
        const comment = await service.pin(viewer.id, request.params.commentId, pinned);
        return ok(reply, comment, pinned ? commentMessages.pinned : commentMessages.unpinned);
      },
    });
  }
};
