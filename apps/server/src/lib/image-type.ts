import { open } from 'node:fs/promises';

export type ImageKind = 'png' | 'jpeg';

/** png or jpeg by the file's first bytes, never by its name or declared type. */
export async function detectImageKind(filePath: string): Promise<ImageKind | null> {
  const fh = await open(filePath, 'r');
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await fh.read(head, 0, 8, 0);
    if (bytesRead >= 8 && head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
    if (bytesRead >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
    return null;
  } finally {
    await fh.close();
  }
}
