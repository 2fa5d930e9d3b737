import path from 'node:path';
import { create as contentDisposition } from 'content-disposition';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  pageQuery,
  progressiveFileParam,
  progressiveFileQuery,
  publishBody,
  userNameParam,
  videoIdParam,
  videoListQuery,
  videoEditFields,
  videoMessages,
  viewBody,
} from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { can } from '../../lib/permissions.ts';
import { ok } from '../../lib/reply.ts';
import { requireViewer } from '../../identity/viewer.ts';
import { PRIVATE_CACHE } from '../media-links/media-links.ts';
import { sendStored } from '../media-links/send-stored.ts';
import { parseFields } from '../../lib/form.ts';
import { VideosService } from './videos.service.ts';

const LOGIN_TO_EDIT = 'Please login to manage your videos';

export const videosRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new VideosService(ctx);
  const tags = ['videos'];
  const viewerId = (request: { viewer: { id: string } | null }) => request.viewer?.id ?? null;

  app.get('/videos', { schema: { tags, querystring: videoListQuery } }, async (request, reply) =>
    ok(reply, await service.list(request.query, viewerId(request)), 'Videos fetched successfully'),
  );

  app.get(
    '/videos/:id',
    { schema: { tags, params: videoIdParam, querystring: z.object({ userId: z.string().optional() }) } },
    async (request, reply) =>
      ok(reply, { video: await service.open(request.params.id, viewerId(request), can(request.viewer ?? null, 'viewPrivate')) }, 'Video fetched successfully'),
  );

  app.get(
    '/videos/:id/similar',
    { schema: { tags, params: videoIdParam, querystring: pageQuery.pick({ limit: true }) } },
    async (request, reply) =>
      ok(reply, { videos: await service.similar(request.params.id, viewerId(request), request.query.limit) }, 'Similar videos fetched successfully'),
  );

  app.post('/videos/:id/views', { schema: { tags, params: videoIdParam, body: viewBody } }, async (request, reply) => {
    const result = await service.view(request.params.id, request.viewer, request.ip, request.body.position);
    return ok(reply, result, result.counted ? 'View counted' : 'View already counted this hour');
  });

  app.patch('/videos/:id', { schema: { tags, params: videoIdParam, security: [{ bearer: [] }] } }, async (request, reply) => {
    const viewer = requireViewer(request, LOGIN_TO_EDIT);
    if (!request.isMultipart()) {
      const body = parseFields(videoEditFields, request.body ?? {});
      return ok(reply, { video: await service.update(request.params.id, viewer.id, body) }, 'Video updated successfully');
    }
    // Ownership first: a stranger's upload is not even read to disk.
    await service.owned(request.params.id, viewer.id);
    const form = await readMultipart(request, path.join(ctx.config.dataDir, 'tmp'), { image: { limitMb: ctx.config.limits.thumbnailMb } });
    try {
      const fields = parseFields(videoEditFields, form.fields);
      const video = await service.update(request.params.id, viewer.id, { ...fields, imagePath: form.files.image?.path });
      return ok(reply, { video }, 'Video updated successfully');
    } finally {
      await form.cleanup();
    }
  });

  app.patch(
    '/videos/:id/publish',
    { schema: { tags, params: videoIdParam, body: publishBody, security: [{ bearer: [] }] } },
    async (request, reply) => {
      const viewer = requireViewer(request, LOGIN_TO_EDIT);
      const video = await service.publish(request.params.id, viewer.id, request.body.isPublished);
      return ok(reply, { video }, video.isPublished ? 'Video published successfully' : 'Video unpublished successfully');
    },
  );

  // Spec §7 `videoFile.publicId`: the progressive mp4 for players without HLS, to whoever may see
  // the video (inline). `?download=1` asks for it as an attachment: the owner's, or anyone's when the
  // owner allows downloads (ADR 013). Its URL outlives a change of privacy, so it is never cached publicly.
  // Without `.mp4` it is the video's poster (a spec client's `<video poster>`), under the same rule.
  app.get('/videos/video/:file', { schema: { tags, params: progressiveFileParam, querystring: progressiveFileQuery } }, async (request, reply) => {
    if (!request.params.file.toLowerCase().endsWith('.mp4')) {
      const poster = await service.poster(request.params.file.toLowerCase(), viewerId(request));
      return sendStored(ctx, request, reply, poster.key, { 'cache-control': PRIVATE_CACHE });
    }
    const download = request.query.download ?? false;
    const file = await service.progressive(request.params.file.slice(0, -'.mp4'.length).toLowerCase(), viewerId(request), download);
    return sendStored(ctx, request, reply, file.key, {
      'cache-control': PRIVATE_CACHE,
      'content-disposition': contentDisposition(file.filename, { type: download ? 'attachment' : 'inline' }),
    });
  });

  // The upload as received, metadata and all: its owner's only (ADR 011).
  app.get('/videos/:id/original', { schema: { tags, params: videoIdParam, security: [{ bearer: [] }] } }, async (request, reply) => {
    const viewer = requireViewer(request, LOGIN_TO_EDIT);
    const original = await service.original(request.params.id, viewer.id);
    return sendStored(ctx, request, reply, original.key, {
      'cache-control': PRIVATE_CACHE,
      'content-disposition': contentDisposition(original.filename),
    }, { original: true });
  });

  app.delete('/videos/:id', { schema: { tags, params: videoIdParam, security: [{ bearer: [] }] } }, async (request, reply) => {
    const viewer = requireViewer(request, LOGIN_TO_EDIT);
    await service.delete(request.params.id, viewer.id);
    return ok(reply, { _id: request.params.id }, videoMessages.deleted);
  });

  app.get(
    '/users/video/:userName',
    { schema: { tags, params: userNameParam, querystring: pageQuery } },
    async (request, reply) =>
      ok(reply, await service.byChannel(request.params.userName, viewerId(request), request.query), 'Videos fetched successfully'),
  );
};
