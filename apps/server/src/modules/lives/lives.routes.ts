import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { liveBody, liveHlsParams, liveMessages, liveParams, livePatch, liveThumbnailParams, pageQuery } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { loginFirst, requireViewer } from '../../identity/viewer.ts';
import { openEventStream } from '../../http/event-stream.ts';
import { badRequest, tooMany } from '../../lib/errors.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { ok } from '../../lib/reply.ts';
import { PRIVATE_CACHE } from '../media-links/media-links.ts';
import { sendStored } from '../media-links/send-stored.ts';
import { LiveChat, MAX_CHAT_STREAMS } from './live-chat.ts';
import { liveSessionPrefix } from '../../storage/media-keys.ts';
import { LivesService } from './lives.service.ts';

/** How long one chat stream stays open before the client reconnects (and visibility is checked again). */
const CHAT_STREAM_SECONDS = 600;

/** Lives and their stream keys (ADR 024). The ingest itself runs on the worker side, not here. */
export const livesRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new LivesService(ctx);
  const schema = { tags: ['lives'], security: [{ bearer: [] }] };
  const onRequest = loginFirst(liveMessages.loginRequired);
  const me = (request: Parameters<typeof requireViewer>[0]) => requireViewer(request, liveMessages.loginRequired).id;
  const chat = new LiveChat(ctx.database);
  const openStreams = new Set<() => void>();
  // Open streams would keep the server from closing.
  app.addHook('preClose', async () => {
    for (const end of openStreams) end();
    await chat.close();
  });

  app.post('/lives', { schema: { ...schema, body: liveBody }, onRequest }, async (request, reply) =>
    ok(reply, await service.create(me(request), request.body), liveMessages.created, 201),
  );

  app.get('/lives', { schema: { ...schema, querystring: pageQuery }, onRequest }, async (request, reply) =>
    ok(reply, await service.list(me(request), request.query), liveMessages.listed),
  );

  app.get('/lives/:liveId', { schema: { tags: ['lives'], params: liveParams } }, async (request, reply) =>
    ok(reply, await service.get(request.viewer?.id ?? null, request.params.liveId), liveMessages.fetched),
  );

  app.patch('/lives/:liveId', { schema: { ...schema, params: liveParams, body: livePatch }, onRequest }, async (request, reply) =>
    ok(reply, await service.update(me(request), request.params.liveId, request.body), liveMessages.updated),
  );

  app.delete('/lives/:liveId', { schema: { ...schema, params: liveParams }, onRequest }, async (request, reply) => {
    await service.remove(me(request), request.params.liveId);
    return ok(reply, null, liveMessages.deleted);
  });

  app.post('/lives/:liveId/key', { schema: { ...schema, params: liveParams }, onRequest }, async (request, reply) =>
    ok(reply, await service.regenerateKey(me(request), request.params.liveId), liveMessages.keyRegenerated),
  );

  // The live's thumbnail (ADR 024): multipart field `image`, checked and re-encoded as a video's.
  app.put('/lives/:liveId/thumbnail', { schema: { ...schema, params: liveParams }, onRequest }, async (request, reply) => {
    const viewerId = me(request);
    // Ownership first: a stranger's upload is not even read to disk.
    await service.checkOwner(viewerId, request.params.liveId);
    const form = await readMultipart(request, path.join(ctx.config.dataDir, 'tmp'), { image: { limitMb: ctx.config.limits.thumbnailMb } });
    try {
      const image = form.files.image;
      if (!image) throw badRequest(liveMessages.thumbnailMissing);
      return ok(reply, await service.setThumbnail(viewerId, request.params.liveId, image.path), liveMessages.thumbnailSet);
    } finally {
      await form.cleanup();
    }
  });

  app.delete('/lives/:liveId/thumbnail', { schema: { ...schema, params: liveParams }, onRequest }, async (request, reply) =>
    ok(reply, await service.setThumbnail(me(request), request.params.liveId, null), liveMessages.thumbnailRemoved),
  );

  // A new thumbnail gets a new file name, so a public one may be cached for long; a private live's never is.
  app.get('/lives/:liveId/thumbnail/:access/:file', { schema: { tags: ['lives'], params: liveThumbnailParams } }, async (request, reply) => {
    const { liveId, access, file } = request.params;
    const { key, privacy } = await service.thumbnail(access, liveId, file);
    return sendStored(ctx, request, reply, key, { 'cache-control': privacy === 'public' ? 'public, max-age=3600' : PRIVATE_CACHE });
  });

  // The live HLS: playlists change every segment, so no cache keeps one longer than a second;
  // a segment never changes once written, but only a public live's may sit in a shared cache.
  app.get('/lives/:liveId/hls/:sessionId/:access/*', { schema: { tags: ['lives'], params: liveHlsParams } }, async (request, reply) => {
    const { liveId, sessionId, access, '*': file } = request.params;
    const live = await service.hlsSession(access, liveId, sessionId);
    if (file.endsWith('/index.m3u8') && live.state === 'live') {
      service.sawViewer(liveId, request.ip, request.headers['user-agent'] ?? '').catch((err: unknown) => request.log.warn({ err }, 'live viewer not counted'));
    }
    const scope = live.privacy === 'public' ? 'public' : 'private';
    const cache = file.endsWith('.m3u8') ? `${scope}, max-age=1` : `${scope}, max-age=3600`;
    return sendStored(ctx, request, reply, `${liveSessionPrefix(liveId, sessionId)}/${file}`, { 'cache-control': cache });
  });

  /**
   * Live chat as Server-Sent Events: `event: comment` whenever a comment is published on the live
   * (the page then reads the comments again). Public and unlisted lives need no login, so the
   * browser's EventSource opens it. A stream ends after CHAT_STREAM_SECONDS and the client
   * reconnects, so a live made private stops being heard within that time.
   */
  app.get('/lives/:liveId/chat/stream', { schema: { tags: ['lives'], params: liveParams } }, async (request, reply) => {
    await service.get(request.viewer?.id ?? null, request.params.liveId);
    const stream: { write?: (text: string) => void } = {};
    const remove = await chat.add(request.params.liveId, () => stream.write?.('event: comment\ndata: {}\n\n'));
    if (!remove) throw tooMany(`At most ${MAX_CHAT_STREAMS} chat streams at once; try again later`);
    stream.write = openEventStream(reply, { maxSeconds: CHAT_STREAM_SECONDS, open: openStreams, onClose: remove });
  });
};
