import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { S3Storage } from '../src/storage/s3-storage.ts';

export interface TestS3 {
  storage: S3Storage;
  endpoint: string;
  /** A scratch folder beside the bucket's files. */
  dir: string;
  close(): Promise<void>;
}

/** An S3-protocol server (s3rver) on a free port with one bucket `media`, and a driver for it. */
export async function startS3(): Promise<TestS3> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'media', configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const storage = new S3Storage({
    bucket: 'media',
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  return {
    storage,
    endpoint,
    dir,
    close: async () => {
      storage.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
