/**
 * PeerTube's resumable upload, as its server mounts it, for the upload benchmark's side-by-side:
 * the real `@uploadx/core` handler (the package PeerTube's server uses) with PeerTube's options, on
 * `POST|PUT|DELETE /api/v1/videos/upload-resumable` of a bare `node:http` server.
 * Read from PeerTube (github.com/Chocobozzz/PeerTube):
 * - server/core/lib/uploadx.ts: `new Uploadx({ directory, expiration: { maxAge: undefined, rolling: true },
 *   maxMetadataSize: '10MB', userIdentifier, filename: `${userId}-${id}${ext}` })`, and
 *   `setupUploadResumableRoutes`: POST (init) and DELETE answered by uploadx, PUT through
 *   `uploadx.upload` and then the controller once the file is complete;
 * - server/core/controllers/api/videos/upload.ts: routePath '/upload-resumable' under /api/v1/videos.
 * What this leaves out makes PeerTube faster, never slower: its OAuth `authenticate` before every
 * request, the init validator (a quota query), and the controller after the last PUT (ffprobe of the
 * file, move into storage, rows, thumbnail and preview made by ffmpeg, jobs): the last PUT answers
 * 200 as soon as uploadx has the whole file.
 * Usage: tsx bench/peertube-upload-server.ts <port> <folder>
 */
import http from 'node:http';
import path from 'node:path';
import { Uploadx, type ExpirationOptions } from '@uploadx/core';

const [port, folder] = process.argv.slice(2);
const ROUTE = '/api/v1/videos/upload-resumable';
const USER_ID = '1';

const uploadx = new Uploadx({
  directory: folder!,
  // PeerTube's object as it passes it (maxAge undefined: no expiry); the package's types ask for a maxAge.
  expiration: { maxAge: undefined, rolling: true } as unknown as ExpirationOptions,
  maxMetadataSize: '10MB',
  userIdentifier: () => USER_ID,
  filename: (file) => `${file.userId}-${file.id}${path.extname(String(file.metadata.filename ?? ''))}`,
});

http
  .createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname !== ROUTE) return void res.end('{"ok":true}');
    // PeerTube's controller after a completed PUT (here: only its answer).
    uploadx.upload(req, res, () => {
      res.setHeader('content-type', 'application/json');
      res.end('{"video":{"id":1}}');
    });
  })
  .listen(Number(port), '127.0.0.1');
