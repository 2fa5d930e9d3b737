import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CHUNK_BYTES, uploadQuery, uploadStatusParam, videoMessages } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { rateLimited } from '../../lib/rate-limit.ts';
import { ok } from '../../lib/reply.ts';
import { actingAs, requireViewer } from '../../identity/viewer.ts';
import { UploadsService } from './uploads.service.ts';

export const uploadsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new UploadsService(ctx);
  const tmpDir = path.join(ctx.config.dataDir, 'tmp');

  app.post(
    '/videos',
    {
      schema: { tags: ['uploads'], querystring: uploadQuery, security: [{ bearer: [] }] },
      // The chunk's admission reads the account (one round trip per chunk, ADR 025).
      config: { ...rateLimited(ctx.config, 'upload'), deferAccountCheck: true },
    },
    async (request, reply) => {
      const q = request.query;
      // A possible last chunk (probe, thumbnail, the video) reads the account first, as other routes do.
      if (q.chunkNumber >= q.totalChunks - 1) await request.checkAccount();
      return actingAs(request, videoMessages.loginToUpload, async (uploader) => {
        const result = await service.receive(uploader, q, (sink) =>
          readMultipart(request, tmpDir, {
            video: { limitMb: CHUNK_BYTES / (1024 * 1024), sink },
            image: { limitMb: ctx.config.limits.thumbnailMb },
          }),
        );
        if ('status' in result) return ok(reply, result.status, 'Chunk received');
        return ok(reply, { video: await service.video(result.videoId, uploader.id) }, videoMessages.uploaded, 201);
      });
    },
  );

  app.get(
    '/videos/uploads/:uniqueId',
    { schema: { tags: ['uploads'], params: uploadStatusParam, security: [{ bearer: [] }] } },
    async (request, reply) => {
      const viewer = requireViewer(request, videoMessages.loginToUpload);
      return ok(reply, await service.status(viewer.id, request.params.uniqueId), 'Upload status fetched successfully');
    },
  );

  app.delete(
    '/videos/uploads/:uniqueId',
    { schema: { tags: ['uploads'], params: uploadStatusParam, security: [{ bearer: [] }] } },
    async (request, reply) => {
      const viewer = requireViewer(request, videoMessages.loginToUpload);
      await service.cancel(viewer.id, request.params.uniqueId);
      return ok(reply, {}, 'Upload cancelled');
    },
  );
};
