import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { allowedHostBody, allowedHostQuery, channelRemoteBlockBody, remoteReportBody, federatedCommentBody, federatedCommentParams, federatedThreadQuery, federationBlockBody, federationBlockQuery, federationMessages, federationPolicyBody, followRemoteBody, pageQuery, rateRemoteBody, remoteActorParams, remoteVideoParams } from '@glimpse/contract';
import type { AppContext, ModuleOptions } from '../../context.ts';
import { loginFirst, permissionFirst, requirePermission, requireViewer } from '../../identity/viewer.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import { rateLimited } from '../../lib/rate-limit.ts';
import { ok } from '../../lib/reply.ts';
import { ACTIVITY_JSON, withContext } from './documents.ts';
import { FederatedComments } from './federated-comments.ts';
import { FederatedModeration } from './federated-moderation.ts';
import { FederationService } from './federation.service.ts';
import { InboxService } from './inbox.service.ts';

/** An activity is small; PeerTube caps its inbox at a few hundred kB too. */
const INBOX_BODY_LIMIT = 256 * 1024;
const NODEINFO_SCHEMA = 'http://nodeinfo.diaspora.software/ns/schema/2.0';
const VERSION = '0.1.0';
const AP_TYPES = ['application/activity+json', 'application/ld+json'];

const idParams = z.object({ id: z.uuid() });
const webfingerQuery = z.object({ resource: z.string().min(1).max(500) });

/** The raw body of each inbox POST (the Digest is over these bytes); kept off `request.body` so the input guard does not walk it. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

const sendAp = (reply: FastifyReply, doc: object | null) => {
  if (!doc) throw notFound('Not found');
  return reply.type(`${ACTIVITY_JSON}; charset=utf-8`).header('cache-control', 'public, max-age=60').send(doc);
};

/** Whether the request asks for ActivityStreams rather than a page (PeerTube and Mastodon send one of these Accepts). */
export const wantsActivityJson = (request: FastifyRequest): boolean => {
  const accept = String(request.headers.accept ?? '');
  return AP_TYPES.some((t) => accept.includes(t));
};

/**
 * Content negotiation on the pages (ARCHITECTURE §14): `/channel/@name` and `/video/{id}` answer
 * their actor or Video to an ActivityPub client; a browser still gets the page. Called by app.ts
 * before its web fallback; false when the request is not one of these.
 */
export function activityPubPages(ctx: AppContext) {
  const federation = new FederationService(ctx);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    if (!ctx.config.federation.enabled || request.method !== 'GET' || !wantsActivityJson(request)) return false;
    const path = new URL(request.url, 'http://x').pathname;
    const channel = /^\/channel\/@([^/]+)\/?$/.exec(path);
    const video = /^\/video\/([0-9a-fA-F-]{36})\/?$/.exec(path);
    if (!channel && !video) return false;
    const doc = channel
      ? await federation.channelDocument({ userName: decodeURIComponent(channel[1]!) })
      : await federation.videoDocument(video![1]!.toLowerCase());
    if (!doc) return false;
    await sendAp(reply, video ? withContext(doc) : doc);
    return true;
  };
}

/** Discovery, actors, objects and inboxes at the site root (no /api prefix: their paths are fixed by the protocols). */
export const federationRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  if (!ctx.config.federation.enabled) return;
  const federation = new FederationService(ctx);
  const inbox = new InboxService(ctx, federation);
  const comments = new FederatedComments(ctx);
  const tags = ['federation'];

  app.get('/.well-known/webfinger', { schema: { tags, querystring: webfingerQuery } }, async (request, reply) => {
    const jrd = await federation.webfinger(request.query.resource);
    if (!jrd) throw notFound('Unknown resource');
    return reply.type('application/jrd+json; charset=utf-8').header('access-control-allow-origin', '*').send(jrd);
  });
  app.get('/.well-known/nodeinfo', { schema: { tags } }, async (_request, reply) =>
    reply.header('access-control-allow-origin', '*').send({ links: [{ rel: NODEINFO_SCHEMA, href: `${federation.urls.base}/nodeinfo/2.0.json` }] }),
  );
  for (const path of ['/nodeinfo/2.0', '/nodeinfo/2.0.json'])
    app.get(path, { schema: { tags } }, async (_request, reply) =>
      reply.type(`application/json; profile="${NODEINFO_SCHEMA}#"`).header('access-control-allow-origin', '*').send(await federation.nodeinfo(VERSION)),
    );

  app.get('/ap/actor', { schema: { tags } }, async (_request, reply) => sendAp(reply, await federation.instanceDocument()));
  app.get('/ap/channels/:id', { schema: { tags, params: idParams } }, async (request, reply) => sendAp(reply, await federation.channelDocument({ id: request.params.id })));
  app.get('/ap/accounts/:id', { schema: { tags, params: idParams } }, async (request, reply) => sendAp(reply, await federation.accountDocument(request.params.id)));
  app.get('/ap/channels/:id/outbox', { schema: { tags, params: idParams } }, async (request, reply) => sendAp(reply, await federation.outbox(request.params.id)));
  app.get('/ap/channels/:id/followers', { schema: { tags, params: idParams } }, async (request, reply) => sendAp(reply, await federation.followers(request.params.id)));
  app.get('/ap/channels/:id/following', { schema: { tags, params: idParams } }, async (request, reply) => sendAp(reply, await federation.following(request.params.id)));
  app.get('/ap/tweets/:id', { schema: { tags, params: idParams } }, async (request, reply) => {
    const doc = await federation.tweetDocument(request.params.id);
    return sendAp(reply, doc && withContext(doc));
  });
  app.get('/ap/comments/:id', { schema: { tags, params: idParams } }, async (request, reply) => {
    const doc = await comments.noteDocument(request.params.id);
    return sendAp(reply, doc && withContext(doc));
  });
  app.get('/ap/video-comments/:id', { schema: { tags, params: idParams } }, async (request, reply) => {
    const doc = await federation.videoCommentDocument(request.params.id);
    return sendAp(reply, doc && withContext(doc));
  });
  app.get('/ap/videos/:id', { schema: { tags, params: idParams } }, async (request, reply) => {
    const doc = await federation.videoDocument(request.params.id);
    return sendAp(reply, doc && withContext(doc));
  });

  await app.register(inboxRoutes, { ctx, inbox });
};

/** The inboxes: their own plugin, so the ActivityStreams body parser and limit apply to them only. */
async function inboxRoutes(app: FastifyInstance, { ctx, inbox }: { ctx: AppContext; inbox: InboxService }) {
  app.removeContentTypeParser('application/json');
  for (const type of [...AP_TYPES, 'application/json'])
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: INBOX_BODY_LIMIT }, (request, body, done) => {
      rawBodies.set(request, body as Buffer);
      done(null, undefined);
    });
  const limit = ctx.config.rateLimits.enabled ? { max: ctx.config.federation.inboxPerMinute, timeWindow: 60_000 } : false;
  const receive = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = rawBodies.get(request);
    if (!body) throw new ApiError(415, 'Send the activity as application/activity+json');
    const { status, result } = await inbox.receive({ method: 'POST', path: request.url, headers: request.headers, body });
    return reply.code(status).send({ statusCode: status, data: { result }, message: 'Activity accepted', success: true });
  };
  for (const path of ['/ap/inbox', '/ap/actor/inbox', '/ap/channels/:id/inbox', '/ap/accounts/:id/inbox'])
    app.post(path, { bodyLimit: INBOX_BODY_LIMIT, config: { rateLimit: limit } }, receive);
}

/** The API of following remote channels (the web app's). */
export const federationApiRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const federation = new FederationService(ctx);
  const schema = { tags: ['federation'], security: [{ bearer: [] }] };
  const login = loginFirst(federationMessages.loginRequired);

  app.post('/federation/follows', { schema: { ...schema, body: followRemoteBody }, onRequest: login }, async (request, reply) => {
    const viewer = requireViewer(request, federationMessages.loginRequired);
    return ok(reply, await federation.followRemote(viewer.id, request.body.handle), 'Follow requested');
  });
  app.delete('/federation/follows/:actorId', { schema: { ...schema, params: remoteActorParams }, onRequest: login }, async (request, reply) => {
    const viewer = requireViewer(request, federationMessages.loginRequired);
    await federation.unfollowRemote(viewer.id, request.params.actorId);
    return ok(reply, null, 'Unfollowed');
  });
  app.get('/federation/feed', { schema: { ...schema, querystring: pageQuery.omit({ cursor: true }) }, onRequest: login }, async (request, reply) => {
    const viewer = requireViewer(request, federationMessages.loginRequired);
    return ok(reply, await federation.remoteFeed(viewer.id, request.query.page, request.query.limit), 'Remote videos fetched');
  });
  app.get('/federation/videos/:videoId', { schema: { ...schema, params: remoteVideoParams } }, async (request, reply) =>
    ok(reply, { video: await federation.remoteVideo(request.params.videoId) }, 'Remote video fetched'),
  );
  app.post(
    '/federation/videos/:videoId/rate',
    { schema: { ...schema, params: remoteVideoParams, body: rateRemoteBody }, onRequest: login },
    async (request, reply) => {
      const viewer = requireViewer(request, federationMessages.loginRequired);
      return ok(reply, await federation.rateRemote(viewer.id, request.params.videoId, request.body.rating), 'Rating sent');
    },
  );

  const comments = new FederatedComments(ctx);
  app.get('/federation/comments', { schema: { ...schema, querystring: federatedThreadQuery } }, async (request, reply) =>
    ok(reply, { comments: await comments.thread(request.query.video, request.viewer?.id ?? null) }, 'Comments fetched'),
  );
  app.post(
    '/federation/videos/:videoId/comments',
    { schema: { ...schema, params: remoteVideoParams, body: federatedCommentBody }, onRequest: login },
    async (request, reply) => {
      const viewer = requireViewer(request, federationMessages.loginRequired);
      return ok(reply, await comments.commentOnRemote(viewer.id, request.params.videoId, request.body.content), 'Comment sent', 201);
    },
  );
  app.post(
    '/federation/comments/:commentId/replies',
    { schema: { ...schema, params: federatedCommentParams, body: federatedCommentBody }, onRequest: login },
    async (request, reply) => {
      const viewer = requireViewer(request, federationMessages.loginRequired);
      return ok(reply, await comments.reply(viewer.id, request.params.commentId, request.body.content), 'Reply sent', 201);
    },
  );

  // Moderation across servers: reports forwarded as Flag, a channel's blocks of remote accounts (always the caller's channel).
  const moderation = new FederatedModeration(ctx);
  const me = (request: FastifyRequest) => requireViewer(request, federationMessages.loginRequired).id;
  // Each report is a delivery to another server: limited as local reports are.
  app.post('/federation/reports', { schema: { ...schema, body: remoteReportBody }, onRequest: login, config: rateLimited(ctx.config, 'report') }, async (request, reply) =>
    ok(reply, await moderation.report(me(request), request.body), 'Report sent', 201),
  );
  app.get('/federation/channel-blocks', { schema, onRequest: login }, async (request, reply) =>
    ok(reply, { blocks: await moderation.blocks(me(request)) }, 'Blocks fetched'),
  );
  app.post('/federation/channel-blocks', { schema: { ...schema, body: channelRemoteBlockBody }, onRequest: login }, async (request, reply) =>
    ok(reply, await moderation.block(me(request), request.body.handle), 'Account blocked', 201),
  );
  app.delete('/federation/channel-blocks/:actorId', { schema: { ...schema, params: remoteActorParams }, onRequest: login }, async (request, reply) =>
    ok(reply, await moderation.unblock(me(request), request.params.actorId), 'Account unblocked'),
  );

  const admin = { ...schema, tags: ['admin'] };
  app.get('/admin/federation/blocks', { schema: admin, onRequest: permissionFirst('configure') }, async (_request, reply) =>
    ok(reply, { blocks: await federation.blocks() }, 'Blocks fetched'),
  );
  app.post('/admin/federation/blocks', { schema: { ...admin, body: federationBlockBody }, onRequest: permissionFirst('configure') }, async (request, reply) => {
    const viewer = requirePermission(request, 'configure');
    return ok(reply, await federation.block(viewer.id, request.body.target), 'Blocked', 201);
  });
  app.delete('/admin/federation/blocks', { schema: { ...admin, querystring: federationBlockQuery }, onRequest: permissionFirst('configure') }, async (request, reply) => {
    await federation.unblock(request.query.target);
    return ok(reply, null, 'Unblocked');
  });
  const configure = permissionFirst('configure');
  app.get('/admin/federation/policy', { schema: admin, onRequest: configure }, async (_request, reply) => ok(reply, await federation.policy(), 'Policy fetched'));
  app.put('/admin/federation/policy', { schema: { ...admin, body: federationPolicyBody }, onRequest: configure }, async (request, reply) =>
    ok(reply, await federation.setMode(request.body.mode), 'Policy updated'),
  );
  app.post('/admin/federation/allowed-hosts', { schema: { ...admin, body: allowedHostBody }, onRequest: configure }, async (request, reply) => {
    const viewer = requirePermission(request, 'configure');
    return ok(reply, await federation.allowHost(viewer.id, request.body.host), 'Host allowed', 201);
  });
  app.delete('/admin/federation/allowed-hosts', { schema: { ...admin, querystring: allowedHostQuery }, onRequest: configure }, async (request, reply) =>
    ok(reply, await federation.disallowHost(request.query.host), 'Host removed'),
  );
  app.get('/federation/channels/:actorId', { schema: { ...schema, params: remoteActorParams } }, async (request, reply) => {
    return ok(reply, await federation.remoteChannelPage(request.params.actorId, request.viewer?.id ?? null), 'Remote channel fetched');
  });
};
