/**
 * The upload benchmark's limit: a bare `node:http` server that parses each POST's multipart body
 * with the parser Glimpse uses (@fastify/busboy, under @fastify/multipart) and streams the file part
 * into a file with the same 4 MB write buffer as the local storage. No auth, validation, SQL or envelope.
 * Usage: tsx bench/bare-upload-server.ts <port> <folder>
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Busboy, { type BusboyHeaders } from '@fastify/busboy';

const [port, folder] = process.argv.slice(2);
mkdirSync(folder!, { recursive: true });
let n = 0;

http
  .createServer((req, res) => {
    if (req.method !== 'POST') return void res.end('{"ok":true}');
    const parser = new Busboy({ headers: req.headers as BusboyHeaders });
    const writes: Promise<void>[] = [];
    const fail = (err: Error) => {
      res.statusCode = 400;
      res.end(JSON.stringify({ message: err.message }));
    };
    parser.on('file', (_field, file) => {
      writes.push(pipeline(file, createWriteStream(path.join(folder!, String(n++)), { highWaterMark: 4 * 1024 * 1024 })));
    });
    parser.on('finish', () => {
      Promise.all(writes).then(() => res.end('{"ok":true}'), fail);
    });
    parser.on('error', fail);
    req.pipe(parser);
  })
  .listen(Number(port), '127.0.0.1');
// A normal exit on the bench's SIGTERM, so that a profile taken with --cpu-prof is written.
process.on('SIGTERM', () => process.exit(0));
