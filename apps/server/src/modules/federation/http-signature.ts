import { createHash, createSign, createVerify, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * HTTP Signatures (draft-cavage-http-signatures-12, `rsa-sha256`) with a `Digest` header: the profile
 * PeerTube (http-signature, headers `(request-target) host date digest`) and Mastodon
 * (app/controllers/concerns/signature_verification.rb) sign and verify. ADR 023.
 */

/** Headers we sign on a POST; a GET signs the same without digest. */
export const POST_SIGNED_HEADERS = ['(request-target)', 'host', 'date', 'digest'] as const;
export const GET_SIGNED_HEADERS = ['(request-target)', 'host', 'date'] as const;
/** How far a signed Date may be from our clock (Mastodon allows 12 h plus 1 h of skew; we keep it to one hour). */
export const MAX_DATE_SKEW_MS = 60 * 60 * 1000;

const generate = promisify(generateKeyPair);

export async function newKeyPair(): Promise<{ publicKeyPem: string; privateKeyPem: string }> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

export const digestOf = (body: string | Buffer): string => `SHA-256=${createHash('sha256').update(body).digest('base64')}`;

function signingString(names: readonly string[], method: string, path: string, headers: Record<string, string>): string | null {
  const lines: string[] = [];
  for (const name of names) {
    if (name === '(request-target)') lines.push(`(request-target): ${method.toLowerCase()} ${path}`);
    else {
      const value = headers[name];
      if (value === undefined) return null;
      lines.push(`${name}: ${value}`);
    }
  }
  return lines.join('\n');
}

export interface SignedRequest {
  method: 'GET' | 'POST';
  url: URL;
  body?: string;
  keyId: string;
  privateKeyPem: string;
  now?: Date;
}

/** The headers of a signed request: Host, Date, Digest (POST) and Signature. */
export function signRequest(r: SignedRequest): Record<string, string> {
  const headers: Record<string, string> = { host: r.url.host, date: (r.now ?? new Date()).toUTCString() };
  if (r.method === 'POST') headers.digest = digestOf(r.body ?? '');
  const names = r.method === 'POST' ? POST_SIGNED_HEADERS : GET_SIGNED_HEADERS;
  const text = signingString(names, r.method, `${r.url.pathname}${r.url.search}`, headers)!;
  const signature = createSign('RSA-SHA256').update(text).sign(r.privateKeyPem, 'base64');
  headers.signature = `keyId="${r.keyId}",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`;
  return headers;
}

export interface SignatureParams {
  keyId: string;
  algorithm?: string;
  headers: string[];
  signature: string;
}

/** The Signature header's fields, or null when it is not one. */
export function parseSignatureHeader(value: string | undefined): SignatureParams | null {
  if (!value || value.length > 4096) return null;
  const fields: Record<string, string> = {};
  for (const match of value.matchAll(/([a-zA-Z]+)="([^"]*)"/g)) fields[match[1]!.toLowerCase()] = match[2]!;
  if (!fields.keyid || !fields.signature) return null;
  return {
    keyId: fields.keyid,
    algorithm: fields.algorithm,
    // draft-cavage: without `headers`, only Date is signed.
    headers: (fields.headers ?? 'date').toLowerCase().split(/\s+/).filter(Boolean),
    signature: fields.signature,
  };
}

export type SignatureProblem = 'no signature' | 'unsigned headers' | 'bad algorithm' | 'date skew' | 'bad digest' | 'bad signature';

/**
 * Checks a request against the signer's public key: the required headers are signed, Date is within
 * MAX_DATE_SKEW_MS, Digest matches the raw body, and the signature verifies. Null when all hold.
 */
export function verifyRequest(
  req: { method: string; path: string; headers: Record<string, string | string[] | undefined>; body?: Buffer | string },
  params: SignatureParams,
  publicKeyPem: string,
  now = Date.now(),
): SignatureProblem | null {
  const required = req.method === 'POST' ? POST_SIGNED_HEADERS : GET_SIGNED_HEADERS;
  if (!required.every((h) => params.headers.includes(h))) return 'unsigned headers';
  // hs2019 is what newer signers name rsa-sha256 keys; the key decides.
  if (params.algorithm && !['rsa-sha256', 'hs2019'].includes(params.algorithm.toLowerCase())) return 'bad algorithm';
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  const date = Date.parse(headers.date ?? '');
  if (!Number.isFinite(date) || Math.abs(now - date) > MAX_DATE_SKEW_MS) return 'date skew';
  if (req.method === 'POST') {
    const given = (headers.digest ?? '').split(',').map((d) => d.trim()).find((d) => d.toUpperCase().startsWith('SHA-256='));
    if (!given || given.slice('SHA-256='.length) !== digestOf(req.body ?? '').slice('SHA-256='.length)) return 'bad digest';
  }
  const text = signingString(params.headers, req.method, req.path, headers);
  if (text === null) return 'unsigned headers';
  try {
    return createVerify('RSA-SHA256').update(text).verify(publicKeyPem, params.signature, 'base64') ? null : 'bad signature';
  } catch {
    return 'bad signature';
  }
}
