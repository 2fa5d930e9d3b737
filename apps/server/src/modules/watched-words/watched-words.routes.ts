import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { watchedWordBody, watchedWordMessages, watchedWordParams } from '@glimpse/contract';
import type { ModuleOptions } from '../../context.ts';
import { ok } from '../../lib/reply.ts';
import { permissionFirst } from '../../identity/viewer.ts';
import { WatchedWordsService } from './watched-words.service.ts';

/** Watched words: admins keep the list (ARCHITECTURE §8, `configure`). */
export const watchedWordsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = new WatchedWordsService(ctx);
  const schema = { tags: ['admin'], security: [{ bearer: [] }] };
  const onRequest = permissionFirst('configure');

  app.get('/admin/watched-words', { schema, onRequest }, async (_request, reply) =>
    ok(reply, { words: await service.list() }, watchedWordMessages.fetched),
  );

  app.post('/admin/watched-words', { schema: { ...schema, body: watchedWordBody }, onRequest }, async (request, reply) =>
    ok(reply, await service.add(request.body.word), watchedWordMessages.added, 201),
  );

  app.delete('/admin/watched-words/:id', { schema: { ...schema, params: watchedWordParams }, onRequest }, async (request, reply) => {
    await service.remove(request.params.id);
    return ok(reply, { _id: request.params.id }, watchedWordMessages.removed);
  });
};
