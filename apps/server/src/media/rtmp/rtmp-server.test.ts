import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeAmf0, encodeAmf0 } from './amf0.ts';
import { RtmpServer } from './rtmp-server.ts';

describe('AMF0', () => {
  it('reads back what it writes, and refuses values that run past their message', () => {
    const bytes = encodeAmf0('publish', 5, null, { app: 'live', n: 1.5, ok: true, nested: { x: 'y' } }, undefined);
    expect(decodeAmf0(bytes)).toEqual(['publish', 5, null, { app: 'live', n: 1.5, ok: true, nested: { x: 'y' } }, undefined]);
    expect(() => decodeAmf0(bytes.subarray(0, bytes.length - 3))).toThrow(/runs past/);
    // An array claiming more items than its message holds is refused before anything is allocated.
    expect(() => decodeAmf0(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff]))).toThrow(/longer than its message/);
  });
});

describe('RTMP server bounds', () => {
  let server: RtmpServer | undefined;
  afterEach(() => server?.close());

  async function start(handshakeTimeoutMs = 10_000) {
    const lines: { msg: string; reason: unknown }[] = [];
    const log = { info: (o: object, msg: string) => void lines.push({ msg, reason: (o as { reason?: unknown }).reason }), warn: () => undefined };
    server = new RtmpServer({ log, handshakeTimeoutMs, onPublish: async () => ({ refuse: 'not in this test' }) });
    return { port: await server.listen(0, '127.0.0.1'), lines };
  }

  /** Connects, sends `bytes` and resolves when the server hangs up. */
  const hangUp = (port: number, bytes: Buffer) =>
    new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
      socket.on('data', () => undefined);
      socket.on('close', () => resolve());
      socket.on('error', () => undefined);
    });

  const handshake = Buffer.concat([Buffer.from([3]), Buffer.alloc(1536), Buffer.alloc(1536)]);

  it('hangs up on a client that never publishes', async () => {
    const { port, lines } = await start(300);
    await hangUp(port, handshake);
    expect(lines).toContainEqual({ msg: 'rtmp connection refused', reason: 'no publish within the time allowed' });
  });

  it('hangs up on a chunk size over 64 KiB and on a message over 4 MiB', async () => {
    const { port, lines } = await start();
    // Chunk stream 2, type 0 header: timestamp 0, length 4, type 1 (set chunk size), stream 0.
    const setChunk = Buffer.from([0x02, 0, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0, 0x00, 0x10, 0x00, 0x01]);
    await hangUp(port, Buffer.concat([handshake, setChunk]));
    const huge = Buffer.from([0x03, 0, 0, 0, 0x7f, 0xff, 0xff, 20, 0, 0, 0, 0]);
    await hangUp(port, Buffer.concat([handshake, huge]));
    expect(lines.map((l) => l.reason)).toEqual(['chunk size out of bounds', 'message too large']);
  });
});
