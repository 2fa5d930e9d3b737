import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { errorBody } from '../../http/errors.ts';
import type { SecurityHeaders } from '../../http/security-headers.ts';
import { HlsStart } from '../media-access/hls-start.ts';
import { BuildAssets, firstPaint } from './first-paint.ts';
import { HeadTemplate } from './html-head.ts';
import { hasPageMeta, PagesService } from './pages.service.ts';

export interface PagesOptions {
  ctx: AppContext;
  /** The app's security headers: the embed keeps its policy and only opens frame-ancestors. */
  securityHeaders: SecurityHeaders<readonly string[]>;
}

/**
 * The web app's HTML: `/embed/{id}` (the one page other sites may frame), and the SPA fallback,
 * which gives the watch, channel and tweet pages their title and link-preview tags.
 */
export function webPages({ ctx, securityHeaders }: PagesOptions) {
  const webDist = ctx.config.webDist;
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  const hasEmbed = existsSync(path.join(webDist, 'embed.html'));
  const pages = new PagesService(ctx);
  const template = new HeadTemplate(path.join(webDist, 'index.html'));
  const assets = new BuildAssets(webDist);
  const hlsStart = new HlsStart(ctx);

  const routes: FastifyPluginAsync = async (app) => {
    const embedHeaders = securityHeaders.with((policy) => ({
      ...policy,
      contentSecurityPolicy: { directives: { ...policy.contentSecurityPolicy.directives, frameAncestors: ['*'] } },
      frameguard: false,
    }));
    app.get('/embed/:videoId', { config: { securityHeaders: embedHeaders } }, async (request, reply) => {
      if (!hasEmbed) return reply.code(404).send(errorBody(404, `Route GET ${request.url.split('?')[0]} not found`));
      return reply.type('text/html').sendFile('embed.html', webDist, { maxAge: 0 });
    });
  };

  /** GET/HEAD of a path the web app routes (the caller checks there is a built app). */
  async function sendApp(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const url = new URL(request.url, 'http://page');
    const site = (await ctx.settings.get()).name;
    // Home, search and watch: the filled shell and first data (ADR 017).
    const first = await firstPaint(request.server, assets, { pathname: url.pathname, search: url.searchParams }, site, (master) =>
      hlsStart.files(master, request.log),
    );
    // Every other route gets the file as built (precompressed, no lookup).
    if (!first && !hasPageMeta(url.pathname)) return reply.type('text/html').sendFile('index.html', webDist, { maxAge: 0 });
    const page = await template.render(await pages.metaFor(url.pathname), first ?? undefined);
    // A shell paints with its own CSS; a page without one waits for the app, styles inline.
    const html = first ? await assets.deferCss(page) : await assets.inlineCss(page);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    return sendCompressed(request, reply, html);
  }

  return { routes, sendApp, hasWeb };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** A page made per request is compressed like the built files are (the inline CSS is most of it). */
async function sendCompressed(request: FastifyRequest, reply: FastifyReply, html: string): Promise<FastifyReply> {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepts))
    return reply.header('content-encoding', 'br').send(await brotli(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(await gzip(html));
  return reply.send(html);
}
