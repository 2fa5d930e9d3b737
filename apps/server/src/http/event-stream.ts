import type { FastifyReply } from 'fastify';

/** A comment line this often keeps proxies and browsers from timing an idle stream out. */
const PING_MS = 25_000;

/**
 * Turns the reply into a Server-Sent Events stream (notifications, live chat): the headers a proxy
 * must pass on at once, the client's reconnect delay, a ping, and an end after `maxSeconds` (the
 * client reconnects, and the route checks the caller again). `open` holds every open stream's end,
 * so the server can close them before it stops. `onClose` runs once when the stream goes.
 */
export function openEventStream(reply: FastifyReply, opts: { maxSeconds: number; open: Set<() => void>; onClose: () => void }): (text: string) => void {
  const res = reply.raw;
  reply.hijack();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // nginx and other proxies must pass events on at once.
    'x-accel-buffering': 'no',
    // The socket goes with the stream: one left open after it would hold up the server's close
    // until the keep-alive timeout.
    connection: 'close',
  });
  res.write('retry: 3000\n\n');
  const ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
  const end = () => res.end();
  const expiry = setTimeout(end, opts.maxSeconds * 1000);
  opts.open.add(end);
  res.on('close', () => {
    clearInterval(ping);
    clearTimeout(expiry);
    opts.open.delete(end);
    opts.onClose();
  });
  return (text) => void res.write(text);
}
