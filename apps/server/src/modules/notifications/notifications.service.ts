import {
  defaultEmailModes,
  mailableTypes,
  notificationMessages,
  type EmailMode,
  type MailableType,
  type Notification,
  type NotificationSettings,
  type NotificationSettingsPatch,
  type NotificationsQuery,
  type UnsubscribeScope,
} from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { toOwner } from '../users/users.presenter.ts';
import { NotificationMailRepository } from './notification-mail.repository.ts';
import { NotificationsRepository, type NotificationRow } from './notifications.repository.ts';
import { UnsubscribeTokens } from './unsubscribe-token.ts';
import { toIso } from '../../lib/time.ts';

export class NotificationsService {
  private readonly repo: NotificationsRepository;
  private readonly mail: NotificationMailRepository;
  private readonly tokens: UnsubscribeTokens;

  constructor(private readonly ctx: AppContext) {
    this.repo = new NotificationsRepository(ctx.db);
    this.mail = new NotificationMailRepository(ctx.db);
    this.tokens = new UnsubscribeTokens(ctx.config.jwtSecret);
  }

  async list(userId: string, q: NotificationsQuery) {
    const rows = await this.repo.list(userId, q.unread, pageWindow(q));
    const page = pageOf('notifications', rows.map((r) => this.present(r)), q, (n) => n._id);
    return { ...page, unread: await this.repo.unreadCount(userId) };
  }

  async unread(userId: string) {
    return { unread: await this.repo.unreadCount(userId) };
  }

  async markRead(userId: string, id: string) {
    if (!(await this.repo.markRead(userId, id))) throw notFound(notificationMessages.notFound);
    await this.repo.notify(`u:${userId}`);
    return this.unread(userId);
  }

  async markAllRead(userId: string) {
    const updated = await this.repo.markAllRead(userId);
    if (updated > 0) await this.repo.notify(`u:${userId}`);
    return { updated, unread: 0 };
  }

  /** Every mailable type's mode: the user's choice, else the default. */
  async settings(userId: string): Promise<{ settings: NotificationSettings }> {
    const saved = new Map((await this.mail.settingsOf(userId)).map((r) => [r.type, r.email_mode]));
    return { settings: Object.fromEntries(mailableTypes.map((t) => [t, saved.get(t) ?? defaultEmailModes[t]])) as NotificationSettings };
  }

  async saveSettings(userId: string, changes: NotificationSettingsPatch) {
    await this.save(userId, Object.entries(changes) as [MailableType, EmailMode][]);
    return this.settings(userId);
  }

  /** The one-click unsubscribe of a mail (RFC 8058): the signed token says whose mails of which kind stop. */
  async unsubscribe(token: string): Promise<{ scope: UnsubscribeScope; types: MailableType[] }> {
    const named = this.tokens.verify(token);
    if (!named) throw badRequest(notificationMessages.badUnsubscribeToken);
    const { userId, scope } = named;
    const { settings } = await this.settings(userId);
    // The digest's link stops the digest: every type mailed in it.
    const types = scope === 'digest' ? mailableTypes.filter((t) => settings[t] === 'digest') : [scope];
    await this.save(userId, types.map((t) => [t, 'off']));
    return { scope, types };
  }

  private async save(userId: string, changes: [MailableType, EmailMode][]) {
    await this.ctx.db.transaction(async (tx) => {
      const mail = new NotificationMailRepository(tx);
      for (const [type, mode] of changes) await mail.saveSetting(userId, type, mode);
    });
  }

  private present(r: NotificationRow): Notification {
    return {
      _id: r.id,
      type: r.type,
      actor: r.actor_id
        ? toOwner(this.ctx.storage, { id: r.actor_id, userName: r.actor_user_name!, fullName: r.actor_full_name!, avatarKey: r.actor_avatar_key })
        : null,
      subject: r.subject,
      read: r.read_at !== null,
      createdAt: toIso(r.created_at),
    };
  }
}
