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

  async function start(handshakeTimeoutMs = 10_000, maxPerAddress = 8) {
    const lines: { msg: string; reason: unknown }[] = [];
    const log = { info: (o: object, msg: string) => void lines.push({ msg, reason: (o as { reason?: unknown }).reason }), warn: () => undefined };
    server = new RtmpServer({ log, handshakeTimeoutMs, maxPerAddress, onPublish: async () => ({ refuse: 'not in this test' }) });
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

  it('refuses connections from one address beyond its share, and takes them again once others close', async () => {
    const { port, lines } = await start(10_000, 2);
    const open = () =>
      new Promise<net.Socket>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
      });
    const [a, b] = [await open(), await open()];
    const third = await open();
    await new Promise<void>((resolve) => third.on('close', () => resolve()));
    expect(lines).toContainEqual({ msg: 'rtmp connection refused', reason: 'too many connections from one address' });
    a.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const fourth = await open();
    const stillOpen = await new Promise<boolean>((resolve) => {
      fourth.once('close', () => resolve(false));
      setTimeout(() => resolve(true), 200);
    });
    expect(stillOpen).toBe(true);
    b.destroy();
    fourth.destroy();
  });

  it("behind a front speaking the PROXY protocol, the encoder's address is the one it names", async () => {
    const asked: { app: string; streamName: string; remoteAddress: string }[] = [];
    server = new RtmpServer({ proxyProtocol: true, onPublish: async (req) => (asked.push(req), { refuse: 'seen' }) });
    const port = await server.listen(0, '127.0.0.1');
    /** One command message on chunk stream 3, split into 128-byte chunks as a client must. */
    const command = (...values: Parameters<typeof encodeAmf0>) => {
      const body = encodeAmf0(...values);
      const head = Buffer.from([0x03, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0, 0]);
      head.writeUIntBE(body.length, 4, 3);
      const parts: Buffer[] = [head];
      for (let off = 0; off < body.length; off += 128) parts.push(...(off ? [Buffer.from([0xc3])] : []), body.subarray(off, off + 128));
      return Buffer.concat(parts);
    };
    await hangUp(
      port,
      Buffer.concat([
        Buffer.from('PROXY TCP4 203.0.113.7 127.0.0.1 50000 1935\r\n', 'latin1'),
        handshake,
        command('connect', 1, { app: 'live', type: 'nonprivate', flashVer: 'FMLE/3.0 (compatible; FMSc/1.0)', tcUrl: 'rtmp://example.org/live', padding: 'x'.repeat(80) }),
        command('createStream', 2, null),
        command('publish', 3, null, 'the-key', 'live'),
      ]),
    );
    expect(asked).toEqual([{ app: 'live', streamName: 'the-key', remoteAddress: '203.0.113.7' }]);
    // Without the line, a front that should send one is not trusted: the connection is closed.
    const lines: unknown[] = [];
    await server.close();
    server = new RtmpServer({ proxyProtocol: true, log: { info: (o) => void lines.push((o as { reason: string }).reason), warn: () => undefined }, onPublish: async () => ({ refuse: 'no' }) });
    await hangUp(await server.listen(0, '127.0.0.1'), handshake);
    expect(lines).toEqual(['bad PROXY header']);
  });

  it('an encoder that leaves while its key is checked: an accepted session is still handed over, already closed, so it ends', async () => {
    let hangUpNow: () => void = () => undefined;
    const handedOver = new Promise<string>((resolve) => {
      server = new RtmpServer({
        onPublish: async () => {
          // The key check takes a moment; the encoder hangs up meanwhile.
          await new Promise<void>((r) => setTimeout(r, 50));
          hangUpNow();
          await new Promise<void>((r) => setTimeout(r, 50));
          return { accept: (conn) => conn.onClose((why) => resolve(why)) };
        },
      });
    });
    const port = await server!.listen(0, '127.0.0.1');
    // Chunk stream 3, type 0 headers: AMF0 commands (type 20) on message stream 0, then 1.
    const command = (stream: number, ...values: Parameters<typeof encodeAmf0>) => {
      const body = encodeAmf0(...values);
      const header = Buffer.from([0x03, 0, 0, 0, (body.length >> 16) & 0xff, (body.length >> 8) & 0xff, body.length & 0xff, 20, stream, 0, 0, 0]);
      return Buffer.concat([header, body]);
    };
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(Buffer.concat([handshake, command(0, 'connect', 1, { app: 'live' }), command(1, 'publish', 2, null, 'live-key', 'live')])),
    );
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    hangUpNow = () => socket.destroy();
    expect(await handedOver).toBe('closed');
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
