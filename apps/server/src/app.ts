// The HTTP composition root (ARCHITECTURE §13, ADR 022): the one place that registers every module's routes.
// What may import what: apps/server/README.md.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { APP_AFTER_VIDEO_SCRIPT } from '@glimpse/contract/first-paint';
import { THEME_BOOT_SCRIPT } from '@glimpse/contract/theme-boot';
import Fastify, { type FastifyInstance, type FastifySchema, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { API_PREFIX } from '@glimpse/contract';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { errorBody, installErrorHandlers, routerErrorHandler } from './http/errors.ts';
import { installInputGuard } from './http/input-guard.ts';
import { DATA_HEADERS, installSecurityHeaders, SecurityHeaders } from './http/security-headers.ts';
import { viewerPlugin } from './identity/viewer.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { tweetsRoutes } from './modules/tweets/tweets.routes.ts';
import { commentsRoutes } from './modules/comments/comments.routes.ts';
import { livesRoutes } from './modules/lives/lives.routes.ts';
import { likesRoutes } from './modules/likes/likes.routes.ts';
import { subscriptionsRoutes } from './modules/subscriptions/subscriptions.routes.ts';
import { playlistsRoutes } from './modules/playlists/playlists.routes.ts';
import { videosRoutes } from './modules/videos/videos.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { instanceRoutes } from './modules/instance/instance.routes.ts';
import { registrationsRoutes } from './modules/registrations/registrations.routes.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { moderationRoutes } from './modules/moderation/moderation.routes.ts';
import { captionsRoutes } from './modules/captions/captions.routes.ts';
import { mediaAccessRoutes } from './modules/media-access/media-access.routes.ts';
import { watchedWordsRoutes } from './modules/watched-words/watched-words.routes.ts';
import { channelBlocksRoutes } from './modules/channel-blocks/channel-blocks.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { feedsRoutes } from './modules/feeds/feeds.routes.ts';
import { embedsRoutes } from './modules/embeds/embeds.routes.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { webPages } from './modules/pages/pages.routes.ts';
import { activityPubPages, federationApiRoutes, federationRoutes } from './modules/federation/federation.routes.ts';
import { remoteMediaOrigins } from './modules/federation/media-origins.ts';
import { databaseRateLimitStore } from './lib/rate-limit-store.ts';
import { tooManyRequestsMessage } from './lib/errors.ts';

export type App = FastifyInstance;

export interface RouteEntry {
  method: string;
  url: string;
  /** The route's contract (zod schemas of params, querystring and body), for generated checks. */
  schema?: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route, for the reliability suite's generated checks. */
    routeTable: RouteEntry[];
  }
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** The security headers of the web app's pages and files (the API's answers get DATA_HEADERS). */
function securityHeadersFor(config: Config, remoteMedia: () => readonly string[]) {
  const s3 = config.s3?.publicUrl ? [config.s3.publicUrl] : [];
  // Remote videos play from their origin (ARCHITECTURE §14): the origins of the followed channels' media.
  return new SecurityHeaders((origins: readonly string[]) => {
    const remote = origins.join(' ') || "'self'";
    return {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...s3, remote],
          mediaSrc: ["'self'", 'blob:', ...s3, remote],
          connectSrc: ["'self'", ...s3, remote],
          workerSrc: ["'self'", 'blob:'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          // The inline scripts, each allowed by its hash: the theme before first paint (index.html) and
          // the watch shell's loader of the app's scripts.
          scriptSrc: ["'self'", scriptHash(THEME_BOOT_SCRIPT), scriptHash(APP_AFTER_VIDEO_SCRIPT)],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
    };
  }, remoteMedia);
}

/** Federation off: no remote origins (one list, so the headers are made once). */
const NO_ORIGINS: readonly string[] = [];

/** external plugins -> app plugins -> modules */
export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const remoteOrigins = remoteMediaOrigins(ctx.db);
  const securityHeaders = securityHeadersFor(ctx.config, () => (ctx.config.federation.enabled ? remoteOrigins.list() : NO_ORIGINS));
  const app = Fastify({
    logger: opts.logger ?? false,
    // The router's refusals are JSON, never a page.
    frameworkErrors: routerErrorHandler(DATA_HEADERS),
    // Off by default: a client could otherwise name any address in X-Forwarded-For and dodge the rate limits.
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
    genReqId: () => crypto.randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandlers(app);
  // Spec §7: every call carries a JSON content type, body-less POSTs and DELETEs included.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else parseJson(request, body.toString(), done);
  });
  installInputGuard(app);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeTable.push({ method, url: route.url, schema: route.schema });
  });

  installSecurityHeaders(app, { pages: securityHeaders, data: DATA_HEADERS, dataPrefix: API_PREFIX });
  await app.register(cookie);
  await app.register(multipart, { limits: { files: 4, fields: 50 } });
  const { rateLimitStore } = ctx.config;
  const sharedCounters = rateLimitStore === 'database' || (rateLimitStore === 'auto' && ctx.database.engine === 'pg');
  await app.register(rateLimit, {
    global: false,
    ...(sharedCounters ? { store: databaseRateLimitStore(ctx.db) } : {}),
    errorResponseBuilder: (_req, ctxRl) => ({
      ...errorBody(429, tooManyRequestsMessage(ctxRl.ttl)),
      statusCode: 429,
    }),
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Glimpse API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(viewerPlugin, { tokens: ctx.tokens, db: ctx.db });

  await app.register(systemRoutes, { prefix: API_PREFIX, ctx });
  await app.register(authRoutes, { prefix: API_PREFIX, ctx });
  await app.register(usersRoutes, { prefix: API_PREFIX, ctx });
  await app.register(tweetsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(commentsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(likesRoutes, { prefix: API_PREFIX, ctx });
  await app.register(subscriptionsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(playlistsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(videosRoutes, { prefix: API_PREFIX, ctx });
  await app.register(captionsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(uploadsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(historyRoutes, { prefix: API_PREFIX, ctx });
  await app.register(dashboardRoutes, { prefix: API_PREFIX, ctx });
  await app.register(instanceRoutes, { prefix: API_PREFIX, ctx });
  await app.register(adminRoutes, { prefix: API_PREFIX, ctx });
  await app.register(registrationsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(watchedWordsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(channelBlocksRoutes, { prefix: API_PREFIX, ctx });
  await app.register(accountsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(moderationRoutes, { prefix: API_PREFIX, ctx });
  await app.register(notificationsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(feedsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(embedsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(analyticsRoutes, { prefix: API_PREFIX, ctx });
  await app.register(federationApiRoutes, { prefix: API_PREFIX, ctx });
  await app.register(federationRoutes, { ctx });
  await app.register(livesRoutes, { prefix: API_PREFIX, ctx });

  await app.register(mediaAccessRoutes, { ctx });
  const webDist = ctx.config.webDist;
  const web = webPages({ ctx, securityHeaders });
  await app.register(web.routes);
  if (web.hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each asset (apps/web/scripts/precompress.mjs).
      preCompressed: true,
      // Built assets carry a content hash in their names, so they never change.
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }

  const activityPub = activityPubPages(ctx);
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url;
    // An ActivityPub client asking for a channel or video page gets its JSON-LD (content negotiation).
    if (await activityPub(request, reply)) return reply;
    const isApi = url.startsWith('/api') || url.startsWith('/media/');
    if (!isApi && web.hasWeb && (request.method === 'GET' || request.method === 'HEAD')) return web.sendApp(request, reply);
    return reply.code(404).send(errorBody(404, `Route ${request.method} ${url.split('?')[0]} not found`));
  });

  return app;
}
