/** Reads `length` bytes at `offset` (fewer at the end of the file). */
export type ReadAt = (offset: number, length: number) => Promise<Buffer>;

/**
 * Walks the top-level boxes of an ISO BMFF (mp4/mov) file and checks that they tile the file
 * exactly. ffprobe accepts a cut-off file whose index (moov) comes first, so a truncated upload
 * is caught here: its last box claims more bytes than the file holds.
 */
export async function checkTopLevelBoxes(read: ReadAt, fileSize: number): Promise<{ ok: true; types: string[] } | { ok: false; reason: string }> {
  const types: string[] = [];
  let offset = 0;
  while (offset < fileSize) {
    const head = await read(offset, 16);
    if (head.length < 8) return { ok: false, reason: `incomplete box header at byte ${offset}` };
    let size = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    if (!/^[\x20-\x7e]{4}$/.test(type)) return { ok: false, reason: `not an mp4 box at byte ${offset}` };
    let headerSize = 8;
    if (size === 1) {
      if (head.length < 16) return { ok: false, reason: `incomplete box header at byte ${offset}` };
      size = Number(head.readBigUInt64BE(8));
      headerSize = 16;
    } else if (size === 0) {
      size = fileSize - offset; // "extends to the end of the file"
    }
    if (size < headerSize) return { ok: false, reason: `bad box size at byte ${offset}` };
    if (offset + size > fileSize) return { ok: false, reason: `box '${type}' is cut off (file truncated)` };
    types.push(type);
    offset += size;
  }
  if (types[0] !== 'ftyp' && !types.includes('moov')) return { ok: false, reason: 'no ftyp/moov box' };
  return { ok: true, types };
}
