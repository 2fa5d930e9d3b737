import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  envelope,
  feedMessages,
  feedPaths,
  feedQuery,
  feedTokenCreated,
  feedTokenParams,
  feedTokenStatus,
  messageOnly,
  userNameParam,
} from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { loginFirst, requireViewer } from '../../identity/viewer.ts';
import { FEED_CONTENT_TYPES } from './feed-xml.ts';
import { FeedsService, type FeedAnswer } from './feeds.service.ts';

/** A public feed may sit in shared caches for a few minutes; a private one only in its reader's. */
const PUBLIC_FEED_CACHE = 'public, max-age=300';
const PRIVATE_FEED_CACHE = 'private, max-age=300';

const sendFeed = (reply: FastifyReply, feed: FeedAnswer, cache: string) =>
  reply.type(FEED_CONTENT_TYPES[feed.format]).header('cache-control', cache).send(feed.xml);

/** RSS and Atom feeds of a channel and of a user's subscriptions, and the private feed's token (docs/feeds.md). */
export const feedsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new FeedsService(ctx);
  const tags = ['feeds'];
  const security = [{ bearer: [] }];
  const description = 'An RSS 2.0 (default) or Atom 1.0 document; errors are the JSON envelope.';

  app.get(
    '/feeds/channels/:userName',
    { schema: { tags, description, params: userNameParam, querystring: feedQuery } },
    async (request, reply) => sendFeed(reply, await service.channel(request.params.userName, request.query.format), PUBLIC_FEED_CACHE),
  );

  // The token is the credential: no login, and the same 404 for a token that never was and one revoked.
  app.get(
    '/feeds/subscriptions/:token',
    { schema: { tags, description, params: feedTokenParams, querystring: feedQuery } },
    async (request, reply) => {
      const feed = await service.subscriptions(request.params.token, request.query.format);
      return sendFeed(reply.header('x-robots-tag', 'noindex'), feed, PRIVATE_FEED_CACHE);
    },
  );

  const login = loginFirst(feedMessages.loginRequired);

  app.get(feedPaths.token, { schema: { tags, security, response: { 200: envelope(feedTokenStatus) } }, onRequest: login }, async (request, reply) => {
    const viewer = requireViewer(request, feedMessages.loginRequired);
    return ok(reply, await service.tokenStatus(viewer.id), feedMessages.fetched);
  });

  app.post(feedPaths.token, { schema: { tags, security, response: { 201: envelope(feedTokenCreated) } }, onRequest: login }, async (request, reply) => {
    const viewer = requireViewer(request, feedMessages.loginRequired);
    return ok(reply.header('cache-control', 'no-store'), await service.createToken(viewer.id), feedMessages.created, 201);
  });

  app.delete(feedPaths.token, { schema: { tags, security, response: { 200: messageOnly } }, onRequest: login }, async (request, reply) => {
    const viewer = requireViewer(request, feedMessages.loginRequired);
    await service.revokeToken(viewer.id);
    return ok(reply, null, feedMessages.revoked);
  });
};
