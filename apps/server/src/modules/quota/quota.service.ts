import { accountMessages, CHUNK_BYTES, type QuotaRefusals, type StorageUsage } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { ApiError } from '../../lib/errors.ts';
import { StorageUsageRepository } from './storage-usage.repository.ts';

/** 413: the upload would take the account past its quota; the upload's chunks are discarded. */
export class QuotaExceeded extends ApiError {
  constructor(message: string, usedBytes: number, limitBytes: number) {
    super(413, message, { usedBytes, limitBytes });
  }
}

/** What happened, in the quota's words: nothing left, the video alone larger than the quota, or larger than what is left. */
function refusal(say: QuotaRefusals, used: number, bytes: number, limit: number): string {
  if (used >= limit) return say.usedUp(used, limit);
  return bytes > limit ? say.largerThanQuota(limit) : say.largerThanLeft(used, limit);
}

/**
 * Upload quotas from the instance settings (`quotaBytes` total, `dailyQuotaBytes` per 24 hours;
 * null = no limit). Checked at an upload's first chunk with what `totalChunks` promises at least,
 * and at its last chunk with the actual bytes. Derived files (transcode output) count toward the
 * total but are never refused: a transcode may take an account past its quota, and its next
 * upload is refused. So do thumbnails, a video's and a live's: counted, never refused.
 */
export class QuotaService {
  constructor(private readonly ctx: AppContext) {}

  /** The least an upload of `totalChunks` chunks holds: every chunk but the last is full (spec §4's client). */
  static leastBytes(totalChunks: number): number {
    return (totalChunks - 1) * CHUNK_BYTES;
  }

  /** Throws QuotaExceeded when `bytes` more would exceed a quota. Run on `db` (a transaction that locked the account, at the last chunk). */
  async check(userId: string, bytes: number, db: Executor = this.ctx.db): Promise<void> {
    // Inside the caller's transaction the settings are not read from the database: on PGlite that
    // read would wait forever for the connection the transaction holds (the check before it read them).
    const { quotaBytes, dailyQuotaBytes } = db === this.ctx.db ? await this.ctx.settings.get() : this.ctx.settings.latest();
    if (quotaBytes === null && dailyQuotaBytes === null) return;
    const { used, daily } = await new StorageUsageRepository(db).usage(userId);
    if (quotaBytes !== null && used + bytes > quotaBytes) {
      throw new QuotaExceeded(refusal(accountMessages.quota, used, bytes, quotaBytes), used, quotaBytes);
    }
    if (dailyQuotaBytes !== null && daily + bytes > dailyQuotaBytes) {
      throw new QuotaExceeded(refusal(accountMessages.dailyQuota, daily, bytes, dailyQuotaBytes), daily, dailyQuotaBytes);
    }
  }

  async usage(userId: string): Promise<StorageUsage> {
    const { quotaBytes, dailyQuotaBytes } = await this.ctx.settings.get();
    const { used, daily } = await new StorageUsageRepository(this.ctx.db).usage(userId);
    return {
      usedBytes: used,
      quotaBytes,
      remainingBytes: quotaBytes === null ? null : Math.max(0, quotaBytes - used),
      dailyUsedBytes: daily,
      dailyQuotaBytes,
    };
  }
}
