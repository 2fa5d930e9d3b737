/**
 * A publish-only RTMP server (ADR 024): the handshake, the chunk stream, the commands an encoder
 * sends to go live (connect, createStream, publish), and the audio/video it then sends, handed on
 * as an FLV byte stream that the media engine reads. It plays nothing back and relays nothing.
 *
 * Everything a client controls is bounded: handshake and idle time, chunk size, message size,
 * chunk streams, connections. A connection that breaks a rule is closed; no other is touched.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import { decodeAmf0, encodeAmf0, type Amf } from './amf0.ts';

export interface PublishRequest {
  /** The application part of the URL (rtmp://host/<app>). */
  app: string;
  /** The stream key as the encoder sent it. */
  streamName: string;
  remoteAddress: string;
}

/** What to do with a publish: refuse it (the message goes to the log and, as a status, to the encoder) or take its media. */
export type PublishDecision = { refuse: string } | { accept: (session: IngestConnection) => void };

export interface IngestConnection {
  /** The published audio and video as FLV, ending when the encoder stops or the connection drops. */
  readonly flv: Readable;
  /** Ends the connection (a session over its time limit, a live deleted, a shutdown). */
  close(reason: string): void;
  /** Called once with why the connection ended. */
  onClose(listener: (reason: string) => void): void;
}

export interface RtmpServerOptions {
  onPublish(req: PublishRequest): Promise<PublishDecision>;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  maxConnections?: number;
  /** Connections one address may hold at once (an encoder needs one; a flood of slow handshakes is cut here). */
  maxPerAddress?: number;
  /**
   * Behind a TCP front (nginx `stream` with `proxy_protocol on`): every connection starts with a PROXY
   * protocol v1 line naming the encoder's address, which then stands for the connection's (key
   * guessing limits, logs). The front bounds connections per address itself (`limit_conn`).
   */
  proxyProtocol?: boolean;
  handshakeTimeoutMs?: number;
  /** A publishing connection that sends nothing for this long is closed. */
  idleTimeoutMs?: number;
}

const HANDSHAKE_SIZE = 1536;
const MAX_CHUNK_SIZE = 65_536;
const MAX_MESSAGE_SIZE = 4 * 1024 * 1024;
const MAX_CHUNK_STREAMS = 32;
const OUT_CHUNK_SIZE = 4096;
const WINDOW_ACK = 2_500_000;
const FLV_HEADER = Buffer.from([0x46, 0x4c, 0x56, 0x01, 0x05, 0, 0, 0, 9, 0, 0, 0, 0]);

/** Codecs accepted on input: H.264 video (FLV codec 7) and AAC audio (sound format 10), as OBS sends by default. */
const AVC = 7;
const AAC = 10;

class ProtocolError extends Error {}

interface ChunkState {
  timestamp: number;
  delta: number;
  length: number;
  type: number;
  streamId: number;
  extended: boolean;
  parts: Buffer[];
  received: number;
}

export class RtmpServer {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly opts: RtmpServerOptions) {
    this.server = net.createServer((socket) => this.accept(socket));
    this.server.maxConnections = opts.maxConnections ?? 64;
  }

  listen(port: number, host = '0.0.0.0'): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as net.AddressInfo).port);
      });
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket) {
    if (this.opts.proxyProtocol) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      new Connection(socket, this.opts);
      return;
    }
    const address = socket.remoteAddress ?? '';
    const held = this.perAddress.get(address) ?? 0;
    if (held >= (this.opts.maxPerAddress ?? 8)) {
      this.opts.log?.info({ reason: 'too many connections from one address', remote: address }, 'rtmp connection refused');
      socket.destroy();
      return;
    }
    this.perAddress.set(address, held + 1);
    this.sockets.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    });
    new Connection(socket, this.opts);
  }
}

class Connection implements IngestConnection {
  readonly flv = new PassThrough({ highWaterMark: 1024 * 1024 });
  private buf: Buffer = Buffer.alloc(0);
  private stage: 'proxy' | 'c0c1' | 'c2' | 'chunks';
  /** The encoder's address: the socket's, or the one a trusted front's PROXY line names. */
  private remote: string;
  private inChunkSize = 128;
  private readonly chunks = new Map<number, ChunkState>();
  private app = '';
  private publishing = false;
  private deciding = false;
  private received = 0;
  private lastAck = 0;
  private closed = false;
  private closeListeners: ((reason: string) => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  private lastData = Date.now();
  private held: Buffer[] = [];
  private heldBytes = 0;

  constructor(
    private readonly socket: net.Socket,
    private readonly opts: RtmpServerOptions,
  ) {
    this.stage = opts.proxyProtocol ? 'proxy' : 'c0c1';
    this.remote = socket.remoteAddress ?? '';
    socket.setNoDelay(true);
    const handshakeMs = opts.handshakeTimeoutMs ?? 10_000;
    const idleMs = opts.idleTimeoutMs ?? 10_000;
    const openedAt = Date.now();
    this.timer = setInterval(() => {
      if (!this.publishing && Date.now() - openedAt > handshakeMs) this.close('no publish within the time allowed');
      else if (this.publishing && Date.now() - this.lastData > idleMs) this.close('the stream stalled');
    }, 500);
    socket.on('data', (data: Buffer) => {
      this.lastData = Date.now();
      this.received += data.length;
      this.buf = this.buf.length ? Buffer.concat([this.buf, data]) : data;
      try {
        this.consume();
      } catch (err) {
        this.close(err instanceof ProtocolError ? err.message : `bad stream: ${(err as Error).message}`);
      }
    });
    socket.on('error', () => this.close('connection error'));
    socket.on('close', () => this.close('the encoder disconnected'));
    this.flv.on('drain', () => socket.resume());
    // A reader that gives up (the engine ended) ends the connection too.
    this.flv.on('close', () => this.close('the stream reader stopped'));
  }

  onClose(listener: (reason: string) => void) {
    if (this.closed) listener('closed');
    else this.closeListeners.push(listener);
  }

  close(reason: string) {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.socket.destroy();
    this.flv.end();
    if (!this.publishing && !this.deciding) this.opts.log?.info({ reason, remote: this.remote }, 'rtmp connection refused');
    for (const l of this.closeListeners) l(reason);
  }

  private consume() {
    for (;;) {
      if (this.closed) return;
      if (this.stage === 'proxy') {
        // PROXY protocol v1: one text line of at most 107 bytes.
        const end = this.buf.indexOf('\r\n');
        if (end < 0) {
          if (this.buf.length > 107) throw new ProtocolError('bad PROXY header');
          return;
        }
        const m = /^PROXY (?:UNKNOWN.*|(?:TCP4|TCP6) (\S+) \S+ \d+ \d+)$/.exec(this.buf.toString('latin1', 0, end));
        if (!m) throw new ProtocolError('bad PROXY header');
        if (m[1]) this.remote = m[1];
        this.buf = this.buf.subarray(end + 2);
        this.stage = 'c0c1';
      } else if (this.stage === 'c0c1') {
        if (this.buf.length < 1 + HANDSHAKE_SIZE) return;
        if (this.buf[0] !== 3) throw new ProtocolError('not an RTMP handshake');
        const c1 = this.buf.subarray(1, 1 + HANDSHAKE_SIZE);
        // The plain handshake (as FFmpeg's own server answers): S1 with zero version bytes, S2 echoing C1.
        const s1 = randomBytes(HANDSHAKE_SIZE);
        s1.fill(0, 0, 8);
        this.socket.write(Buffer.concat([Buffer.from([3]), s1, c1]));
        this.buf = this.buf.subarray(1 + HANDSHAKE_SIZE);
        this.stage = 'c2';
      } else if (this.stage === 'c2') {
        if (this.buf.length < HANDSHAKE_SIZE) return;
        this.buf = this.buf.subarray(HANDSHAKE_SIZE);
        this.stage = 'chunks';
      } else if (!this.readChunk()) return;
    }
  }

  /** Reads one chunk if it is all there; false when more bytes are needed. */
  private readChunk(): boolean {
    const b = this.buf;
    if (b.length < 1) return false;
    const fmt = b[0]! >> 6;
    let csid = b[0]! & 0x3f;
    let pos = 1;
    if (csid === 0) {
      if (b.length < 2) return false;
      csid = 64 + b[1]!;
      pos = 2;
    } else if (csid === 1) {
      if (b.length < 3) return false;
      csid = 64 + b[1]! + b[2]! * 256;
      pos = 3;
    }
    let state = this.chunks.get(csid);
    if (!state) {
      if (fmt !== 0) throw new ProtocolError('a chunk stream must start with a full header');
      if (this.chunks.size >= MAX_CHUNK_STREAMS) throw new ProtocolError('too many chunk streams');
      state = { timestamp: 0, delta: 0, length: 0, type: 0, streamId: 0, extended: false, parts: [], received: 0 };
    }
    const headerSize = [11, 7, 3, 0][fmt]!;
    if (b.length < pos + headerSize) return false;
    const next = { ...state };
    let ts = 0;
    if (fmt <= 2) {
      ts = b.readUIntBE(pos, 3);
      next.extended = ts === 0xffffff;
    }
    if (fmt <= 1) {
      next.length = b.readUIntBE(pos + 3, 3);
      next.type = b[pos + 6]!;
      if (next.length > MAX_MESSAGE_SIZE) throw new ProtocolError('message too large');
    }
    if (fmt === 0) next.streamId = b.readUInt32LE(pos + 7);
    pos += headerSize;
    if (next.extended) {
      if (b.length < pos + 4) return false;
      // Sent again on continuation chunks when the header had it.
      if (fmt <= 2) ts = b.readUInt32BE(pos);
      pos += 4;
    }
    const starting = state.received === 0;
    if (!starting && fmt !== 3) throw new ProtocolError('a new header in the middle of a message');
    const size = Math.min(this.inChunkSize, next.length - next.received);
    if (b.length < pos + size) return false;
    if (starting) {
      if (fmt === 0) next.timestamp = ts;
      else if (fmt <= 2) {
        next.delta = ts;
        next.timestamp = (next.timestamp + ts) >>> 0;
      } else next.timestamp = (next.timestamp + next.delta) >>> 0;
      next.parts = [];
    }
    next.parts.push(b.subarray(pos, pos + size));
    next.received += size;
    this.buf = b.subarray(pos + size);
    if (next.received >= next.length) {
      const payload = Buffer.concat(next.parts);
      next.parts = [];
      next.received = 0;
      this.chunks.set(csid, next);
      this.message(next.type, next.timestamp, payload);
    } else this.chunks.set(csid, next);
    this.acknowledge();
    return true;
  }

  private acknowledge() {
    if (this.received - this.lastAck < WINDOW_ACK) return;
    this.lastAck = this.received;
    const body = Buffer.alloc(4);
    body.writeUInt32BE(this.received >>> 0);
    this.send(2, 3, 0, body);
  }

  private message(type: number, timestamp: number, payload: Buffer) {
    switch (type) {
      case 1: {
        if (payload.length < 4) throw new ProtocolError('bad chunk size');
        const size = payload.readUInt32BE(0) & 0x7fffffff;
        if (size < 1 || size > MAX_CHUNK_SIZE) throw new ProtocolError('chunk size out of bounds');
        this.inChunkSize = size;
        return;
      }
      case 20:
        return this.command(decodeAmf0(payload));
      case 8:
      case 9:
      case 18:
        return this.media(type, timestamp, payload);
      default:
        // Acknowledgements, window sizes, user control, aborts: nothing to do for a publisher.
        return;
    }
  }

  private command(values: Amf[]) {
    const [name, txn] = values;
    const txnId = typeof txn === 'number' ? txn : 0;
    if (name === 'connect') {
      const obj = values[2];
      this.app = obj && typeof obj === 'object' && !Array.isArray(obj) && typeof obj.app === 'string' ? obj.app : '';
      const ack = Buffer.alloc(4);
      ack.writeUInt32BE(WINDOW_ACK);
      this.send(2, 5, 0, ack);
      const bw = Buffer.alloc(5);
      bw.writeUInt32BE(WINDOW_ACK);
      bw[4] = 2;
      this.send(2, 6, 0, bw);
      const chunk = Buffer.alloc(4);
      chunk.writeUInt32BE(OUT_CHUNK_SIZE);
      this.send(2, 1, 0, chunk);
      this.outChunkSize = OUT_CHUNK_SIZE;
      this.send(3, 20, 0, encodeAmf0('_result', txnId, { fmsVer: 'FMS/3,0,1,123', capabilities: 31 }, { level: 'status', code: 'NetConnection.Connect.Success', description: 'Connection succeeded.', objectEncoding: 0 }));
    } else if (name === 'createStream') {
      this.send(3, 20, 0, encodeAmf0('_result', txnId, null, 1));
    } else if (name === 'publish') {
      const streamName = typeof values[3] === 'string' ? values[3] : '';
      if (this.deciding || this.publishing) throw new ProtocolError('publish sent twice');
      this.deciding = true;
      this.opts.onPublish({ app: this.app, streamName, remoteAddress: this.remote }).then(
        (decision) => this.decided(decision),
        (err: unknown) => this.decided({ refuse: `could not check the key: ${(err as Error).message}` }),
      );
    } else if (name === 'FCUnpublish' || name === 'deleteStream' || name === 'closeStream') {
      this.close('the encoder stopped the stream');
    }
    // releaseStream, FCPublish, getStreamLength...: encoders do not wait for an answer.
  }

  private decided(decision: PublishDecision) {
    this.deciding = false;
    if (this.closed) {
      // The encoder left while its key was checked: an accepted session is still handed over, so its
      // owner ends it (it sees the connection closed) and the live does not stay "on air" unfed.
      if ('accept' in decision) decision.accept(this);
      return;
    }
    if ('refuse' in decision) {
      this.status('error', 'NetStream.Publish.BadName', decision.refuse);
      this.opts.log?.warn({ reason: decision.refuse, remote: this.remote }, 'rtmp publish refused');
      // Let the status reach the encoder before hanging up.
      setTimeout(() => this.close(decision.refuse), 100);
      return;
    }
    this.publishing = true;
    const begin = Buffer.alloc(6);
    begin.writeUInt32BE(1, 2); // User control: StreamBegin, stream 1
    this.send(2, 4, 0, begin);
    this.status('status', 'NetStream.Publish.Start', 'Publishing.');
    this.flv.write(Buffer.concat([FLV_HEADER, ...this.held]));
    this.held = [];
    decision.accept(this);
  }

  private media(type: number, timestamp: number, payload: Buffer) {
    if (!this.publishing && !this.deciding) throw new ProtocolError('media before publish');
    if (type === 9 && payload.length > 0) {
      if (payload[0]! & 0x80 || (payload[0]! & 0x0f) !== AVC) throw new ProtocolError('video codec must be H.264');
    } else if (type === 8 && payload.length > 0) {
      if (payload[0]! >> 4 !== AAC) throw new ProtocolError('audio codec must be AAC');
    } else if (type === 18) {
      payload = stripSetDataFrame(payload);
    }
    const tag = Buffer.alloc(11);
    tag[0] = type;
    tag.writeUIntBE(payload.length, 1, 3);
    tag.writeUIntBE(timestamp & 0xffffff, 4, 3);
    tag[7] = (timestamp >>> 24) & 0xff;
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(11 + payload.length);
    if (this.deciding) {
      // Encoders send their codec headers right after publish, while the key is checked: kept (bounded) for when it is accepted.
      this.held.push(Buffer.concat([tag, payload, trailer]));
      this.heldBytes += 11 + payload.length + 4;
      if (this.heldBytes > MAX_MESSAGE_SIZE) throw new ProtocolError('too much media before the key was checked');
      return;
    }
    if (!this.flv.write(Buffer.concat([tag, payload, trailer]))) this.socket.pause();
  }

  private status(level: string, code: string, description: string) {
    this.send(5, 20, 1, encodeAmf0('onStatus', 0, null, { level, code, description }));
  }

  private outChunkSize = 128;

  /** Sends one message, split into chunks (type 0 header first, type 3 after). */
  private send(csid: number, type: number, streamId: number, body: Buffer) {
    if (this.closed) return;
    const parts: Buffer[] = [];
    for (let off = 0; off < body.length || off === 0; off += this.outChunkSize) {
      if (off === 0) {
        const h = Buffer.alloc(12);
        h[0] = csid;
        h.writeUIntBE(body.length, 4, 3);
        h[7] = type;
        h.writeUInt32LE(streamId, 8);
        parts.push(h);
      } else parts.push(Buffer.from([0xc0 | csid]));
      parts.push(body.subarray(off, off + this.outChunkSize));
      if (body.length === 0) break;
    }
    this.socket.write(Buffer.concat(parts));
  }
}

/** Encoders send metadata as `@setDataFrame onMetaData {...}`; an FLV file holds `onMetaData {...}`. */
function stripSetDataFrame(payload: Buffer): Buffer {
  const prefix = encodeAmf0('@setDataFrame');
  return payload.subarray(0, prefix.length).equals(prefix) ? payload.subarray(prefix.length) : payload;
}
