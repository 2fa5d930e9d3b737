import type { AppContext } from '../../context.ts';
import { unauthorized } from '../../lib/errors.ts';
import { EXPORT_SECTIONS, ExportRepository } from './export.repository.ts';

/** Rows read per query: the export never holds more than one page of one section in memory. */
const PAGE = 500;

/**
 * The account's data as one JSON document (issue #12, item 8): profile, videos (metadata),
 * tweets, comments, playlists, watch history, likes and subscriptions, written as it is read,
 * page by page. Others' content appears only as ids (and a subscribed channel's public name).
 */
export class ExportService {
  private readonly repo: ExportRepository;

  constructor(private readonly ctx: AppContext) {
    this.repo = new ExportRepository(ctx.db);
  }

  /** Reads the profile first, so a missing account is a 401 before any byte is sent. */
  async open(userId: string): Promise<{ userName: string; chunks: AsyncGenerator<string> }> {
    const profile = await this.repo.profile(userId);
    if (!profile) throw unauthorized('User not found');
    const { avatarKey, coverKey, ...rest } = profile;
    const storage = this.ctx.storage;
    const shown = {
      ...rest,
      avatar: typeof avatarKey === 'string' ? storage.url(avatarKey) : null,
      coverImage: typeof coverKey === 'string' ? storage.url(coverKey) : null,
    };
    return { userName: String(profile.userName), chunks: this.write(userId, shown) };
  }

  private async *write(userId: string, profile: Record<string, unknown>): AsyncGenerator<string> {
    yield `{"exportedAt":${JSON.stringify(new Date().toISOString())},"profile":${JSON.stringify(profile)}`;
    for (const section of EXPORT_SECTIONS) {
      yield `,${JSON.stringify(section)}:[`;
      let after = '';
      let first = true;
      for (;;) {
        const rows = await this.repo.page(section, userId, after, PAGE);
        for (const { k, ...row } of rows) {
          yield `${first ? '' : ','}${JSON.stringify(row)}`;
          first = false;
          after = k;
        }
        if (rows.length < PAGE) break;
      }
      yield ']';
    }
    yield '}';
  }
}
