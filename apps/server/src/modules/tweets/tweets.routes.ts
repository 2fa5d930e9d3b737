import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { channelTweetsParams, pageQuery, tweetMessages, tweetParams } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { ok } from '../../lib/reply.ts';
import { permissionFirst, requireViewer, requirePermission } from '../../identity/viewer.ts';
import { TweetsService, type TweetForm } from './tweets.service.ts';

export const tweetsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new TweetsService(ctx);
  const schema = { tags: ['tweets'], security: [{ bearer: [] }] };

  /** Reads the multipart form (`content`, optional `image`) and removes the temp files afterwards. */
  async function withForm<T>(request: FastifyRequest, use: (form: TweetForm) => Promise<T>): Promise<T> {
    const body = await readMultipart(request, path.join(ctx.config.dataDir, 'tmp'), {
      image: { limitMb: ctx.config.limits.imageMb },
    });
    try {
      return await use({ fields: body.fields, imagePath: body.files.image?.path });
    } finally {
      await body.cleanup();
    }
  }

  app.post('/tweets', { schema }, async (request, reply) => {
    const viewer = requireViewer(request, tweetMessages.loginRequired);
    const tweet = await withForm(request, (form) => service.create(viewer, form));
    return ok(reply, tweet, tweet.state === 'held' ? tweetMessages.held : tweetMessages.created, 201);
  });

  app.patch('/tweets/:tweetId', { schema: { ...schema, params: tweetParams } }, async (request, reply) => {
    const viewer = requireViewer(request, 'Please login to edit a tweet');
    const tweet = await withForm(request, (form) => service.update(viewer, request.params.tweetId, form));
    return ok(reply, tweet, tweet.state === 'held' ? tweetMessages.held : tweetMessages.updated);
  });

  app.delete('/tweets/:tweetId', { schema: { ...schema, params: tweetParams } }, async (request, reply) => {
    const viewer = requireViewer(request, 'Please login to delete a tweet');
    return ok(reply, await service.remove(viewer.id, request.params.tweetId), tweetMessages.deleted);
  });

  // The optional trailing {userId} is the spec client's; identity still comes only from the token.
  app.get(
    '/tweets/user/:channelId/:userId?',
    { schema: { ...schema, params: channelTweetsParams, querystring: pageQuery } },
    async (request, reply) => {
      const data = await service.byChannel(request.params.channelId, request.viewer, request.query);
      return ok(reply, data, 'Tweets fetched successfully');
    },
  );

  app.get('/tweets/:tweetId/:userId?', { schema: { ...schema, params: tweetParams } }, async (request, reply) => {
    const tweet = await service.one(request.params.tweetId, request.viewer);
    return ok(reply, { tweets: [tweet] }, 'Tweet fetched successfully');
  });

  // The moderators' review of held tweets (issue #12 item 5).
  const moderate = { onRequest: permissionFirst('moderate') };
  app.get('/moderation/held-tweets', { schema: { ...schema, querystring: pageQuery }, ...moderate }, async (request, reply) =>
    ok(reply, await service.held(requirePermission(request, 'moderate'), request.query), tweetMessages.heldFetched),
  );

  app.post('/moderation/held-tweets/:tweetId/approve', { schema: { ...schema, params: tweetParams }, ...moderate }, async (request, reply) =>
    ok(reply, await service.approve(requirePermission(request, 'moderate'), request.params.tweetId), tweetMessages.approved),
  );

  app.delete('/moderation/held-tweets/:tweetId', { schema: { ...schema, params: tweetParams }, ...moderate }, async (request, reply) =>
    ok(reply, await service.removeHeld(request.params.tweetId), tweetMessages.heldDeleted),
  );
};
