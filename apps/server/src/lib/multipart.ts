import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { newId } from './ids.ts';
import { ApiError, badRequest, tooLarge } from './errors.ts';
import { refuseControlCharacters } from './validate.ts';

export interface FileRule {
  /** Limit in MB, as the spec words the message 'File size should not exceed {n}MB'. */
  limitMb: number;
  /**
   * Where the file's bytes go instead of a temporary file (an upload chunk straight into storage):
   * the result names no path then. A sink must consume the stream or reject.
   */
  sink?: (body: Readable) => Promise<void>;
}

export interface ReceivedFile {
  field: string;
  /** The temporary file ('' when the rule's sink took the bytes). */
  path: string;
  size: number;
  filename: string;
  mimetype: string;
}

export interface MultipartResult {
  fields: Record<string, string>;
  files: Record<string, ReceivedFile>;
  /** Removes the temporary files; call in `finally` once they were moved or are no longer needed. */
  cleanup(): Promise<void>;
}

const MB = 1024 * 1024;
const MALFORMED = 'Malformed multipart/form-data body';

/**
 * The parser (busboy) reports a missing boundary or a cut-off part as a plain Error. Ours carry a
 * status, the plugin's limits a statusCode and the file system a syscall: anything else is the body's fault.
 */
const isMalformedBody = (err: unknown) =>
  err instanceof Error && !(err instanceof ApiError) && !('statusCode' in err) && !('syscall' in err);

/**
 * Streams a multipart body to temporary files, enforcing each file field's size limit while
 * reading (413 as soon as it is passed) and refusing unknown file fields (400).
 */
export async function readMultipart(
  request: FastifyRequest,
  tmpRoot: string,
  rules: Record<string, FileRule>,
): Promise<MultipartResult> {
  if (!request.isMultipart()) throw badRequest('Expected a multipart/form-data body');
  const dir = path.join(tmpRoot, `mp-${newId()}`);
  // Made with the first file that needs it: an upload chunk goes to its sink and needs none.
  let made = false;
  const cleanup = async () => {
    if (made) await rm(dir, { recursive: true, force: true });
  };
  const fields: Record<string, string> = {};
  const files: Record<string, ReceivedFile> = {};
  const maxBytes = Math.max(1, ...Object.values(rules).map((r) => r.limitMb * MB)) + 1;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, fields: 50, fieldSize: MB } })) {
      if (part.type === 'field') {
        refuseControlCharacters('body', { [part.fieldname]: part.value });
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const rule = rules[part.fieldname];
      if (!rule || files[part.fieldname]) {
        part.file.resume();
        throw badRequest(rule ? `Only one file is accepted in field '${part.fieldname}'` : `Unexpected file field '${part.fieldname}'`);
      }
      const limit = rule.limitMb * MB;
      const dest = rule.sink ? '' : path.join(dir, `${Object.keys(files).length}-${part.fieldname}`);
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          cb(size > limit ? tooLarge(rule.limitMb) : null, chunk);
        },
      });
      if (rule.sink) {
        // A failing sink stops the read too (its error is the answer).
        const sunk = rule.sink(counter).catch((err: unknown) => {
          counter.destroy(err as Error);
          throw err;
        });
        await Promise.all([pipeline(part.file, counter), sunk]);
      }
      else {
        if (!made) await mkdir(dir, { recursive: true });
        made = true;
        await pipeline(part.file, counter, createWriteStream(dest));
      }
      if (part.file.truncated) throw tooLarge(rule.limitMb);
      files[part.fieldname] = { field: part.fieldname, path: dest, size, filename: part.filename, mimetype: part.mimetype };
    }
  } catch (err) {
    await cleanup();
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw tooLarge(Math.max(...Object.values(rules).map((r) => r.limitMb)));
    }
    throw isMalformedBody(err) ? badRequest(MALFORMED) : err;
  }
  return { fields, files, cleanup };
}
