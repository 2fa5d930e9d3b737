/**
 * AMF0, the value encoding of RTMP commands (connect, createStream, publish...). Only the types an
 * encoder such as OBS or FFmpeg sends in those commands are read; anything else ends the read, and
 * the connection is refused as garbage.
 */
export type Amf = number | boolean | string | null | undefined | { [key: string]: Amf } | Amf[];

export class AmfError extends Error {}

const MAX_DEPTH = 8;

/** Reads every value of a command message. Bounded by the message, which the chunk reader bounds. */
export function decodeAmf0(buf: Buffer): Amf[] {
  const values: Amf[] = [];
  let pos = 0;
  const need = (n: number) => {
    if (pos + n > buf.length) throw new AmfError('AMF0 value runs past its message');
  };
  const readString = (long: boolean) => {
    need(long ? 4 : 2);
    const len = long ? buf.readUInt32BE(pos) : buf.readUInt16BE(pos);
    pos += long ? 4 : 2;
    need(len);
    const s = buf.toString('utf8', pos, pos + len);
    pos += len;
    return s;
  };
  const readObjectBody = (depth: number) => {
    const obj: Record<string, Amf> = {};
    for (;;) {
      const key = readString(false);
      need(1);
      if (key === '' && buf[pos] === 0x09) {
        pos += 1;
        return obj;
      }
      obj[key] = readValue(depth + 1);
    }
  };
  const readValue = (depth: number): Amf => {
    if (depth > MAX_DEPTH) throw new AmfError('AMF0 nested too deep');
    need(1);
    const marker = buf[pos++]!;
    switch (marker) {
      case 0x00:
        need(8);
        pos += 8;
        return buf.readDoubleBE(pos - 8);
      case 0x01:
        need(1);
        return buf[pos++] !== 0;
      case 0x02:
        return readString(false);
      case 0x03:
        return readObjectBody(depth);
      case 0x05:
        return null;
      case 0x06:
        return undefined;
      case 0x08:
        need(4);
        pos += 4; // ECMA array: a count hint, then the same body as an object
        return readObjectBody(depth);
      case 0x0a: {
        need(4);
        const n = buf.readUInt32BE(pos);
        pos += 4;
        if (n > buf.length - pos) throw new AmfError('AMF0 array longer than its message');
        return Array.from({ length: n }, () => readValue(depth + 1));
      }
      case 0x0c:
        return readString(true);
      default:
        throw new AmfError(`AMF0 type ${marker} is not expected in a command`);
    }
  };
  while (pos < buf.length) values.push(readValue(0));
  return values;
}

/** Encodes the values of a reply (numbers, strings, booleans, null, plain objects). */
export function encodeAmf0(...values: Amf[]): Buffer {
  const parts: Buffer[] = [];
  const str = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    const head = Buffer.alloc(2);
    head.writeUInt16BE(b.length);
    parts.push(head, b);
  };
  const write = (v: Amf) => {
    if (typeof v === 'number') {
      const b = Buffer.alloc(9);
      b[0] = 0x00;
      b.writeDoubleBE(v, 1);
      parts.push(b);
    } else if (typeof v === 'boolean') parts.push(Buffer.from([0x01, v ? 1 : 0]));
    else if (typeof v === 'string') {
      parts.push(Buffer.from([0x02]));
      str(v);
    } else if (v === null) parts.push(Buffer.from([0x05]));
    else if (v === undefined) parts.push(Buffer.from([0x06]));
    else if (Array.isArray(v)) throw new AmfError('arrays are not sent');
    else {
      parts.push(Buffer.from([0x03]));
      for (const [k, val] of Object.entries(v)) {
        str(k);
        write(val);
      }
      parts.push(Buffer.from([0x00, 0x00, 0x09]));
    }
  };
  for (const v of values) write(v);
  return Buffer.concat(parts);
}
