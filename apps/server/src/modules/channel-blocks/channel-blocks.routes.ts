import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { channelBlockBody, channelBlockMessages, channelBlockParams, pageQuery } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { loginFirst, requireViewer } from '../../identity/viewer.ts';
import { ChannelBlocksService } from './channel-blocks.service.ts';

/** The caller's own block list: the channel is always the caller. */
export const channelBlocksRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new ChannelBlocksService(ctx);
  const schema = { tags: ['channel-blocks'], security: [{ bearer: [] }] };
  const onRequest = loginFirst(channelBlockMessages.loginRequired);
  const me = (request: Parameters<typeof requireViewer>[0]) => requireViewer(request, channelBlockMessages.loginRequired).id;

  app.get('/channel-blocks', { schema: { ...schema, querystring: pageQuery }, onRequest }, async (request, reply) =>
    ok(reply, await service.list(me(request), request.query), channelBlockMessages.fetched),
  );

  app.post('/channel-blocks', { schema: { ...schema, body: channelBlockBody }, onRequest }, async (request, reply) =>
    ok(reply, await service.block(me(request), request.body.userId), channelBlockMessages.blocked, 201),
  );

  app.delete('/channel-blocks/:userId', { schema: { ...schema, params: channelBlockParams }, onRequest }, async (request, reply) =>
    ok(reply, await service.unblock(me(request), request.params.userId), channelBlockMessages.unblocked),
  );
};
