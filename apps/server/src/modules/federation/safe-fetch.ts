import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * The one way federation reaches another server (ADR 023): http(s) only, no redirects, a timeout and
 * a body cap, and every address the name resolves to checked at connect time (so a DNS answer that
 * changes between a check and the connection cannot reach the local network).
 */

const privateRanges = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  privateRanges.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  privateRanges.addSubnet(net6, bits, 'ipv6');

/** Whether an address is private, loopback, link-local, unique-local or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return privateRanges.check(address, 'ipv4');
  if (family === 6) {
    // An IPv4-mapped IPv6 address is judged as the IPv4 one.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return privateRanges.check(mapped[1]!, 'ipv4');
    return privateRanges.check(address, 'ipv6');
  }
  return true;
}

export class RemoteFetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RemoteFetchError';
  }
}

export interface FetchOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  maxBytes?: number;
  allowPrivate: boolean;
}

export interface FetchResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;

export function safeFetch(url: URL, opts: FetchOptions): Promise<FetchResult> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.reject(new RemoteFetchError(`refused scheme ${url.protocol}`));
  if (url.username || url.password) return Promise.reject(new RemoteFetchError('refused credentials in URL'));
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(literal) && !opts.allowPrivate && isPrivateAddress(literal)) return Promise.reject(new RemoteFetchError(`refused address ${literal}`));
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((a) => !opts.allowPrivate && isPrivateAddress(a.address));
      if (refused || list.length === 0) return callback(new RemoteFetchError(`refused address ${refused?.address ?? 'none'}`), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const client = url.protocol === 'https:' ? https : http;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise<FetchResult>((resolve, reject) => {
    const req = client.request(
      url,
      { method: opts.method ?? 'GET', headers: { 'user-agent': 'Glimpse (ActivityPub)', ...opts.headers }, lookup, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy(new RemoteFetchError(`answer larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    // The socket's timeout is for silence; this one for the whole exchange, so a server that sends a
    // byte every few seconds cannot hold a worker's lane (or an inbox request) for minutes.
    const deadline = setTimeout(() => req.destroy(new RemoteFetchError('timed out')), timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new RemoteFetchError('timed out')));
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}
