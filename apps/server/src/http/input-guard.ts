import type { FastifyInstance } from 'fastify';
import { refuseControlCharacters } from '../lib/validate.ts';

/**
 * One rule for every route, before any schema or SQL: no string in the path, query or body may
 * carry a control character (ARCHITECTURE §4). Multipart fields are checked as they are read
 * (lib/multipart.ts).
 */
export function installInputGuard(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request (Fastify answers what it throws).
  app.addHook('preValidation', (request, _reply, done) => {
    refuseControlCharacters('params', request.params);
    refuseControlCharacters('querystring', request.query);
    refuseControlCharacters('body', request.body);
    done();
  });
}
