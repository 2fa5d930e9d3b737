import type { FastifyReply } from 'fastify';

/** Sends the success envelope `{ statusCode, data, message, success: true }`. */
export function ok<T>(reply: FastifyReply, data: T, message = 'Success', statusCode = 200) {
  return reply.code(statusCode).send({ statusCode, data, message, success: true });
}
