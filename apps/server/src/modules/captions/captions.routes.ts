import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CAPTION_MAX_BYTES, captionJsonBody, captionMessages, captionParams, videoIdParam } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { badRequest } from '../../lib/errors.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { ok } from '../../lib/reply.ts';
import { requireViewer } from '../../identity/viewer.ts';
import { parseFields } from '../../lib/form.ts';
import { CaptionsService } from './captions.service.ts';

const LOGIN_FOR_CAPTIONS = 'Please login to manage captions';
const labelField = captionJsonBody.pick({ label: true });

/** Captions of a video (issue #13): listed to whoever may see the video, written by its owner. */
export const captionsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new CaptionsService(ctx);
  const tags = ['captions'];

  app.get('/videos/:id/captions', { schema: { tags, params: videoIdParam } }, async (request, reply) =>
    ok(reply, { captions: await service.list(request.params.id, request.viewer?.id ?? null) }, captionMessages.listed),
  );

  // The file as multipart (`file` + `label`) or JSON (`{ label, text }`): SRT or WebVTT, stored as WebVTT.
  app.post('/videos/:id/captions/:lang', { schema: { tags, params: captionParams, security: [{ bearer: [] }] } }, async (request, reply) => {
    const viewer = requireViewer(request, LOGIN_FOR_CAPTIONS);
    const { id, lang } = request.params;
    if (!request.isMultipart()) {
      const body = parseFields(captionJsonBody, request.body ?? {});
      return ok(reply, { captions: await service.save(id, viewer.id, lang, body.label, Buffer.from(body.text)) }, captionMessages.saved);
    }
    // Ownership first: a stranger's file is not even read to disk.
    await service.owner(id, viewer.id);
    const form = await readMultipart(request, path.join(ctx.config.dataDir, 'tmp'), { file: { limitMb: CAPTION_MAX_BYTES / (1024 * 1024) } });
    try {
      const { label } = parseFields(labelField, form.fields);
      const file = form.files.file;
      if (!file) throw badRequest(captionMessages.fileRequired);
      return ok(reply, { captions: await service.save(id, viewer.id, lang, label, await readFile(file.path)) }, captionMessages.saved);
    } finally {
      await form.cleanup();
    }
  });

  app.delete('/videos/:id/captions/:lang', { schema: { tags, params: captionParams, security: [{ bearer: [] }] } }, async (request, reply) => {
    const viewer = requireViewer(request, LOGIN_FOR_CAPTIONS);
    await service.remove(request.params.id, viewer.id, request.params.lang);
    return ok(reply, { lang: request.params.lang }, captionMessages.deleted);
  });
};
