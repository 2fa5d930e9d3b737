import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { channelIdParams, pageQuery, subscribedChannelsQuery, subscriptionMessages } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { loginFirst, requireViewer } from '../../identity/viewer.ts';
import { SubscriptionsService } from './subscriptions.service.ts';

export const subscriptionsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new SubscriptionsService(ctx);
  const schema = { tags: ['subscriptions'], security: [{ bearer: [] }] };

  app.post(
    '/subscriptions/toggle/:channelId',
    { schema: { ...schema, params: channelIdParams }, onRequest: loginFirst(subscriptionMessages.loginRequired) },
    async (request, reply) => {
      const viewer = requireViewer(request, subscriptionMessages.loginRequired);
      const result = await service.toggle(viewer.id, request.params.channelId);
      return ok(reply, result, result.isSubscribed ? 'Subscribed successfully' : 'Unsubscribed successfully');
    },
  );

  app.get(
    '/subscriptions',
    { schema: { ...schema, querystring: pageQuery }, onRequest: loginFirst(subscriptionMessages.feedLoginRequired) },
    async (request, reply) => {
      const viewer = requireViewer(request, subscriptionMessages.feedLoginRequired);
      return ok(reply, await service.feed(viewer.id, request.query), 'Subscribed videos fetched successfully');
    },
  );

  // ?userId is the spec client's and ignored: the list is public.
  app.get(
    '/subscriptions/channel/:channelId',
    { schema: { ...schema, params: channelIdParams, querystring: subscribedChannelsQuery } },
    async (request, reply) => {
      const data = await service.subscribedChannels(request.params.channelId, request.viewer?.id ?? null, request.query);
      return ok(reply, data, 'Subscribed channels fetched successfully');
    },
  );
};
