/**
 * The upload benchmark's middle step: Fastify with @fastify/multipart registered as Glimpse
 * registers it, each POST's file part streamed into a file with the same 4 MB write buffer as the
 * bare server and the local storage. No auth, validation, SQL or envelope: set between the bare
 * server and Glimpse, it shows how much of Glimpse's gap is the framework's.
 * Usage: tsx bench/framework-upload-server.ts <port> <folder>
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';

const [port, folder] = process.argv.slice(2);
mkdirSync(folder!, { recursive: true });
let n = 0;

const app = Fastify({ bodyLimit: 1024 * 1024 });
await app.register(multipart, { limits: { files: 4, fields: 50 } });
app.get('/', async () => ({ ok: true }));
app.post('/api/v1/videos', async (request) => {
  for await (const part of request.parts({ limits: { fileSize: 4 * 1024 * 1024 } })) {
    if (part.type === 'file') await pipeline(part.file, createWriteStream(path.join(folder!, String(n++)), { highWaterMark: 4 * 1024 * 1024 }));
  }
  return { ok: true };
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
// A normal exit on the bench's SIGTERM, so that a profile taken with --cpu-prof is written.
process.on('SIGTERM', () => process.exit(0));
