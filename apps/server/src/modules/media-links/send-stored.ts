import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import { contentTypeOf } from '../../storage/content-types.ts';
import { encodeKey, LocalStorage } from '../../storage/local-storage.ts';
import { MEDIA_NOT_FOUND } from './media-links.ts';

/**
 * Answers with a stored file and the given headers. Behind nginx (MEDIA_ACCEL_REDIRECT, local
 * disk) a file is handed to nginx, which sends it with sendfile; otherwise the storage driver
 * answers (byte ranges, HEAD, ETag) and the bytes stream through this process.
 */
export async function sendStored(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  headers: Record<string, string>,
  opts: { original?: boolean } = {},
): Promise<FastifyReply> {
  const accel = ctx.config.mediaAccelRedirect;
  // An original may be kept as its chunks (ADR 025): no single file for nginx to send. Asked of
  // originals only, so other media pay no extra look.
  if (accel && ctx.storage instanceof LocalStorage && !(opts.original && (await ctx.storage.parted(key)))) {
    return reply
      .headers(headers)
      .header('content-type', contentTypeOf(key))
      .header('x-accel-redirect', `${accel}${encodeKey(key)}`)
      .send();
  }
  const answer = await ctx.storage.answer(key, request.raw);
  if (!answer) throw notFound(MEDIA_NOT_FOUND);
  if (answer.statusCode >= 400) {
    if (answer.headers['Content-Range']) reply.header('content-range', answer.headers['Content-Range']);
    throw new ApiError(answer.statusCode, answer.statusCode === 416 ? 'Range not satisfiable' : 'Precondition failed');
  }
  reply.code(answer.statusCode).headers(answer.headers).headers(headers);
  if (answer.statusCode !== 304) reply.header('content-type', contentTypeOf(key));
  return reply.send(answer.body ?? undefined);
}
