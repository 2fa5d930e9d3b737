/**
 * The API benchmark's limit: a bare `node:http` server answering the same SQL as Glimpse (the
 * repositories' own queries, run over a plain `pg` pool through Drizzle's node-postgres driver),
 * with no framework, validation, presenters or envelope building beyond JSON.stringify.
 * Usage: tsx bench/bare-server.ts <port> <database url>
 */
import http from 'node:http';
import pg from 'pg';
import { wrapPool } from '../apps/server/src/db/client.ts';
import { CommentsRepository } from '../apps/server/src/modules/comments/comments.repository.ts';
import { VideosRepository } from '../apps/server/src/modules/videos/videos.repository.ts';

const [port, url] = process.argv.slice(2);
// The same pool size as the server's (openDatabase's default).
const database = wrapPool(new pg.Pool({ connectionString: url, max: 10 }));
const videos = new VideosRepository(database.db);
const comments = new CommentsRepository(database.db);
const window = (limit: number) => ({ limit, offset: 0, after: null });

async function answer(u: URL): Promise<unknown> {
  const parts = u.pathname.split('/').filter(Boolean); // api, v1, ...
  const limit = Number(u.searchParams.get('limit') ?? 10);
  if (parts[2] === 'videos' && parts.length === 3) {
    const query = u.searchParams.get('query') ?? undefined;
    const { rows } = await videos.list({ viewerId: null, query, sort: query ? 'relevance' : 'views', limit, offset: 0 });
    return rows;
  }
  if (parts[2] === 'videos' && parts.length === 4) return videos.findVisible(parts[3]!, null);
  if (parts[2] === 'comments' && parts[3] === 'video' && parts.length === 5) {
    const entity = await comments.findEntity('video', parts[4]!, null, false);
    if (!entity?.visible) return null;
    // The first page with its pinned comment, in the one statement Glimpse runs for it (ADR 025).
    return comments.listWithPinned(parts[4]!, null, false, window(limit));
  }
  return null;
}

http
  .createServer((req, res) => {
    answer(new URL(req.url ?? '/', 'http://x')).then(
      (data) => {
        res.writeHead(data ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ statusCode: 200, data, success: true }));
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: String(err) }));
      },
    );
  })
  .listen(Number(port), '127.0.0.1');
