import type { Executor } from '../db/client.ts';
import { StorageMovesRepository } from './storage-moves.repository.ts';
import type { Storage } from './storage.ts';

/**
 * Applies the storage renames migrations recorded (the rows already name the new keys). Run at
 * boot by every process before it serves or works; safe to repeat and to run in two processes at
 * once: a file already moved, or gone with its deleted video, leaves nothing to do. Answers how
 * many files moved.
 */
export async function applyStorageMoves(db: Executor, storage: Storage): Promise<number> {
  const moves = new StorageMovesRepository(db);
  let moved = 0;
  for (const { fromKey, toKey } of await moves.pending()) {
    if (await storage.exists(fromKey)) {
      try {
        await storage.move(fromKey, toKey);
        moved += 1;
      } catch (err) {
        // Another process moved it between our check and our move.
        if (await storage.exists(fromKey)) throw err;
      }
    }
    await moves.done(fromKey);
  }
  return moved;
}
