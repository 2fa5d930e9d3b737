import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { HeaderSource } from './security-headers.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { messages } from '@glimpse/contract';
import { ApiError, LoginRequired } from '../lib/errors.ts';

interface Body {
  statusCode: number;
  data: Record<string, unknown> | null;
  message: string;
  success: false;
  errors: { path: string; message: string }[];
}

const body = (statusCode: number, message: string, extra: Partial<Body> = {}): Body => ({
  statusCode,
  data: null,
  message,
  success: false,
  errors: [],
  ...extra,
});

/** Every failure answers the JSON error envelope; never HTML, never a stack trace. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      // The spec client's refresh trigger: a login-only call made with an expired token.
      const message = !(error instanceof LoginRequired)
        ? error.message
        : request.rejectedToken === 'expired'
          ? messages.jwtExpired
          : request.rejectedToken === 'suspended'
            ? messages.accountSuspended
            : request.rejectedToken === 'revoked'
              ? messages.sessionEnded
              : error.message;
      return reply.code(error.statusCode).send(body(error.statusCode, message, { data: error.data, errors: error.errors }));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        path: [error.validationContext, ...String(v.instancePath).split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'Invalid value',
      }));
      return reply.code(400).send(body(400, errors[0]?.message ?? 'Invalid request', { errors }));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.code(429).send(body(429, error.message || 'Too many requests, please try again later.'));
    if (status >= 400 && status < 500) {
      // Fastify's own refusals (content type, body size, malformed JSON) before any handler ran.
      request.log.info({ code: error.code, statusCode: status }, error.message);
      const message = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'Malformed JSON body' : error.message;
      return reply.code(status).send(body(status, message));
    }
    if (isDatabaseUnavailable(error)) {
      // The pool replaces dead connections on the next query: the client should simply retry.
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).header('retry-after', '1').send(body(503, 'The service is briefly unavailable. Please try again.'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(body(500, 'Something went wrong on our side. Please try again.'));
  });
}

const ROUTER_MESSAGES: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: 'Malformed URL: invalid percent-encoding in the path' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: 'A path parameter is too long' },
};

/**
 * Fastify's `frameworkErrors`: what the router refuses before routing (bad percent-encoding, an
 * over-long path parameter) skips every hook, so the envelope, the security headers and the log
 * line are added here.
 */
export function routerErrorHandler(securityHeaders: HeaderSource) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, message } = ROUTER_MESSAGES[error.code] ?? { status: 400, message: 'Bad request' };
    request.log.info({ code: error.code, statusCode: status }, message);
    securityHeaders.apply(reply.raw);
    void reply.code(status).send(body(status, message));
  };
}

export function errorBody(statusCode: number, message: string): Body {
  return body(statusCode, message);
}
