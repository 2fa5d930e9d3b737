import {
  moderationMessages as m,
  type CreateReportBody,
  type LogEntry,
  type QueueItem,
  type QueueQuery,
  type Report,
  type ReportTargetKind,
  type SuspendBody,
  type TakedownKind,
  type TakedownNotice,
  type TargetContext,
} from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { decodeCursor, toPage } from '../../lib/pagination.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import {
  appealClosedMail,
  deletedMail,
  reportOutcomeMail,
  restoredMail,
  suspendedMail,
  takedownMail,
  unsuspendedMail,
  type ItemName,
} from '../../mail/templates.ts';
import { canActAgainst, type Actor } from '../../lib/permissions.ts';
import { SessionsRepository } from '../../identity/sessions.repository.ts';
import { commentChanged, CommentsService } from '../comments/comments.service.ts';
import { mediaUrls, type MediaUrls } from '../media-links/media-links.ts';
import { TweetsService } from '../tweets/tweets.service.ts';
import { VideosService } from '../videos/videos.service.ts';
import { recordEvent } from '../../events/events.ts';
import { videoChanged } from '../videos/announce.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { MODERATION_MAIL_QUEUE } from './moderation-mail.job.ts';
import { accountLabel, ModerationRepository, targetLabel, type Recipient, type TargetRow } from './moderation.repository.ts';
import { toTakedown } from '../../policy/content-state.ts';
import { toIso } from '../../lib/time.ts';

/** Reports shown per queue item; the count says how many there are. */
const REPORTS_PER_ITEM = 20;

export interface StaffActor extends Actor {
  id: string;
}

const contextOf = (r: TargetRow): TargetContext => ({
  label: r.exists ? r.label : null,
  videoId: r.video_id,
  tweetId: r.tweet_id,
  userName: r.owner_user_name,
  remoteVideoId: r.remote_video_id,
});

const takedownOf = (r: TargetRow): TakedownNotice | null =>
  toTakedown({
    takenDownAt: r.taken_down_at,
    takedownReason: r.takedown_reason,
    appealText: r.appeal_text,
    appealedAt: r.appealed_at,
    appealClosedAt: r.appeal_closed_at,
  });

/** Reports (users), the queue and its actions (staff), appeals (owners): issue #12 items 3 and 4, ADR 012. */
export class ModerationService {
  private readonly repo: ModerationRepository;
  private readonly media: MediaUrls;

  constructor(private readonly ctx: AppContext) {
    this.repo = new ModerationRepository(ctx.db);
    this.media = mediaUrls(ctx);
  }

  // --- reports ---

  async report(reporterId: string, body: CreateReportBody): Promise<Report> {
    const { targetKind, targetId } = body;
    if (!(await this.repo.isVisible(targetKind, targetId, reporterId))) throw notFound(m.targetNotFound);
    const target = await this.repo.target(targetKind, targetId);
    if (target.owner_id === reporterId) throw badRequest(m.ownContent);
    try {
      await this.repo.insertReport({ reporterId, targetKind, targetId, reason: body.reason, text: body.text ?? '' });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(m.alreadyReported);
      throw err;
    }
    const [created] = await this.repo.mine(reporterId, { limit: 1, offset: 0, after: null });
    return this.toReport(created!);
  }

  async mine(reporterId: string, q: { page: number; limit: number; cursor?: string }) {
    const rows = await this.repo.mine(reporterId, pageWindow(q));
    return pageOf('data', rows.map((r) => this.toReport(r)), q, (r) => r._id);
  }

  private toReport(r: Awaited<ReturnType<ModerationRepository['mine']>>[number]): Report {
    return {
      _id: r.id,
      targetKind: r.target_kind,
      targetId: r.target_id,
      reason: r.reason,
      text: r.report_text,
      state: r.state,
      createdAt: toIso(r.created_at),
      resolvedAt: r.resolved_at ? toIso(r.resolved_at) : null,
      target: contextOf(r),
    };
  }

  // --- appeals (the owner) ---

  /** The owner's one appeal of a take-down; anyone else is told the item does not exist. */
  async appeal(ownerId: string, kind: TakedownKind, id: string, text: string): Promise<TakedownNotice> {
    await this.ctx.db.transaction(async (tx) => {
      const repo = new ModerationRepository(tx);
      const row = await repo.lockContent(kind, id);
      if (!row || row.owner_id !== ownerId) throw notFound(m.targetNotFound);
      if (!row.taken_down_at) throw conflict(m.notTakenDown);
      if (row.appealed_at) throw conflict(m.alreadyAppealed);
      await repo.appeal(kind, id, text);
    });
    return takedownOf(await this.repo.target(kind, id))!;
  }

  // --- the queue (staff) ---

  async queue(q: QueueQuery) {
    const cursor = q.cursor ? decodeCursor(q.cursor, 2) : undefined;
    const rows = await this.repo.queue(q.state, q.kind, q.limit, (q.page - 1) * q.limit, cursor);
    const page = toPage('data', rows, { page: q.page, limit: q.limit, cursorOf: (r) => [r.last_key, r.target_id] });
    const data: QueueItem[] = [];
    for (const r of page.data) {
      const reports = await this.repo.targetReports(r.target_kind, r.target_id, q.state, REPORTS_PER_ITEM);
      data.push({
        targetKind: r.target_kind,
        targetId: r.target_id,
        target: contextOf(r),
        text: r.text,
        // Staff see the thumbnail of a hidden video through a signed link, like its owner.
        thumbnail: this.media.fileRef(r.target_kind === 'video' && r.exists ? r.target_id : null, null, r.thumbnail_key),
        owner: r.owner_id
          ? {
              _id: r.owner_id,
              userName: r.owner_user_name!,
              fullName: r.owner_full_name!,
              role: r.owner_role!,
              state: r.owner_state!,
              stateReason: r.owner_state_reason,
              suspendedUntil: r.owner_suspended_until ? toIso(r.owner_suspended_until) : null,
            }
          : null,
        itemState: !r.exists ? 'deleted' : r.taken_down_at ? 'taken_down' : 'visible',
        takedown: takedownOf(r),
        reportCount: r.report_count,
        reports: reports.map((x) => ({
          _id: x.id,
          reason: x.reason,
          text: x.text,
          state: x.state,
          reporter: { _id: x.reporter_id, userName: x.reporter_user_name },
          createdAt: toIso(x.created_at),
        })),
        lastActivityAt: toIso(r.last_at),
      });
    }
    return { ...page, data };
  }

  async log(q: { page: number; limit: number; cursor?: string }) {
    const rows = await this.repo.logPage(pageWindow(q));
    const entries: LogEntry[] = rows.map((r) => ({
      _id: r.id,
      actor: r.actor_id && r.actor_user_name ? { _id: r.actor_id, userName: r.actor_user_name } : null,
      fromCommandLine: r.from_cli,
      targetKind: r.target_kind,
      targetId: r.target_id,
      // The name it has now while it exists; what it was called at the time once it is gone.
      target: { ...contextOf(r), label: targetLabel(r) ?? r.target_label },
      targetExists: r.exists,
      action: r.action,
      reason: r.reason,
      createdAt: toIso(r.created_at),
    }));
    return pageOf('data', entries, q, (e) => e._id);
  }

  // --- actions (staff): each writes moderation_log and queues its mails in one transaction ---

  /** Open reports -> dismissed; a waiting appeal is closed (the item stays removed). */
  async dismiss(actor: StaffActor, kind: ReportTargetKind, id: string, reason: string): Promise<void> {
    const target = await this.existing(kind, id);
    await this.ctx.db.transaction(async (tx) => {
      const repo = new ModerationRepository(tx);
      const { resolved, reporters } = await repo.resolveOpen(kind, id, 'dismissed', actor.id);
      const appealWaiting = kind !== 'channel' && kind !== 'federatedComment' && target.appealed_at !== null && target.appeal_closed_at === null && target.taken_down_at !== null;
      if (resolved === 0 && !appealWaiting) throw conflict('Nothing to dismiss');
      const mails = this.outcomeMails(reporters, itemName(target), 'dismissed');
      await this.notice(tx, reporters, 'dismissed');
      const label = targetLabel(target);
      if (resolved > 0) await repo.log({ actorId: actor.id, targetKind: kind, targetId: id, action: 'dismiss', reason, label });
      if (appealWaiting) {
        await repo.closeAppeal(kind, id);
        await repo.log({ actorId: actor.id, targetKind: kind, targetId: id, action: 'keep_removed', reason, label });
        mails.push(...(await this.ownerMail(repo, target, (to) => appealClosedMail(to, itemName(target), this.itemLink(target)))));
        await this.notice(tx, [target.owner_id], 'appealClosed', { target, reason });
      }
      await this.queueMails(tx, mails);
    });
  }

  async takeDown(actor: StaffActor, kind: TakedownKind, id: string, reason: string): Promise<void> {
    await this.setTakenDown(actor, kind, id, reason, true);
  }

  async restore(actor: StaffActor, kind: TakedownKind, id: string, reason: string): Promise<void> {
    await this.setTakenDown(actor, kind, id, reason, false);
  }

  /** Take-down (open reports -> actioned) and restore: the same checks, row lock and log; the owner is mailed either way. */
  private async setTakenDown(actor: StaffActor, kind: TakedownKind, id: string, reason: string, down: boolean): Promise<void> {
    const target = await this.existing(kind, id);
    this.checkAgainstOwner(actor, target);
    const name = itemName(target);
    await this.ctx.db.transaction(async (tx) => {
      const repo = new ModerationRepository(tx);
      const row = await repo.lockContent(kind, id);
      if (!row) throw notFound(m.targetNotFound);
      if ((row.taken_down_at !== null) === down) throw conflict(down ? m.alreadyTakenDown : m.notTakenDown);
      const wasListed = kind === 'video' && (await new VideosRepository(tx).isListed(id));
      await repo.setTakenDown(kind, id, down ? { actorId: actor.id, reason } : null);
      if (kind === 'video') await videoChanged(tx, { id, ownerId: row.owner_id }, wasListed);
      // Federation sends Delete of a taken-down tweet's Note (Update once restored).
      if (kind === 'tweet') await recordEvent(tx, { kind: 'tweetChanged', actorId: row.owner_id, tweetId: id });
      if (kind === 'comment') await commentChanged(tx, { id, videoId: target.video_id }, actor.id);
      const reporters = down ? (await repo.resolveOpen(kind, id, 'actioned', actor.id)).reporters : [];
      await repo.log({ actorId: actor.id, targetKind: kind, targetId: id, action: down ? 'take_down' : 'restore', reason, label: targetLabel(target) });
      const link = this.itemLink(target);
      const ownerMails = await this.ownerMail(repo, target, (to) => (down ? takedownMail(to, name, reason, link) : restoredMail(to, name, link)));
      await this.queueMails(tx, [...ownerMails, ...this.outcomeMails(reporters, name, 'actioned')]);
      await this.notice(tx, [target.owner_id], down ? 'takenDown' : 'restored', { target, reason: down ? reason : undefined });
      await this.notice(tx, reporters, 'actioned');
    });
  }

  /** Deletes the item for good through its own module's delete (files included); the log and mails join its transaction. */
  async delete(actor: StaffActor, kind: TakedownKind, id: string, reason: string): Promise<void> {
    const target = await this.existing(kind, id);
    this.checkAgainstOwner(actor, target);
    const ownerId = target.owner_id!;
    const within = async (tx: Executor) => {
      const repo = new ModerationRepository(tx);
      const { reporters } = await repo.resolveOpen(kind, id, 'actioned', actor.id);
      // Read before the delete: the entry keeps the name of what is gone.
      await repo.log({ actorId: actor.id, targetKind: kind, targetId: id, action: 'delete', reason, label: targetLabel(target) });
      await this.queueMails(tx, [
        ...(await this.ownerMail(repo, target, (to) => deletedMail(to, itemName(target), reason, this.link('/')))),
        ...this.outcomeMails(reporters, itemName(target), 'actioned'),
      ]);
      await this.notice(tx, [ownerId], 'deleted', { reason });
      await this.notice(tx, reporters, 'actioned');
    };
    if (kind === 'video') await new VideosService(this.ctx).delete(id, ownerId, within);
    else if (kind === 'tweet') await new TweetsService(this.ctx).remove(ownerId, id, within);
    else await new CommentsService(this.ctx).remove(ownerId, id, within);
  }

  /** Suspends the account and revokes every session in one transaction; its channel's open reports are actioned. */
  async suspend(actor: StaffActor, userId: string, body: SuspendBody): Promise<void> {
    const until = body.until ? new Date(body.until) : null;
    if (until && until <= new Date()) throw badRequest(m.untilPast);
    if (userId === actor.id) throw badRequest(m.selfTarget);
    await this.ctx.db.transaction(async (tx) => {
      const repo = new ModerationRepository(tx);
      const user = await repo.lockUser(userId);
      if (!user) throw notFound('User not found');
      const refusal = canActAgainst(actor, user.role);
      if (refusal === 'admin') throw forbidden(m.adminTarget);
      if (refusal === 'staff') throw forbidden(m.staffTarget);
      await repo.setAccountState(userId, { state: 'suspended', reason: body.reason, until });
      await new SessionsRepository(tx).revokeUser(userId);
      const { reporters } = await repo.resolveOpen('channel', userId, 'actioned', actor.id);
      await repo.log({ actorId: actor.id, targetKind: 'channel', targetId: userId, action: 'suspend', reason: body.reason, label: accountLabel(user) });
      const channel: ItemName = { kind: 'channel', label: user.fullName };
      await this.queueMails(tx, [
        suspendedMail(user, body.reason, until, this.link('/login')),
        ...this.outcomeMails(reporters, channel, 'actioned'),
      ]);
      await this.notice(tx, reporters, 'actioned');
    });
  }

  async unsuspend(actor: StaffActor, userId: string, reason: string): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const repo = new ModerationRepository(tx);
      const user = await repo.lockUser(userId);
      if (!user) throw notFound('User not found');
      if (user.state !== 'suspended') throw conflict(m.notSuspended);
      if (canActAgainst(actor, user.role) === 'staff') throw forbidden(m.staffTarget);
      await repo.setAccountState(userId, { state: 'active', reason: null, until: null });
      await repo.log({ actorId: actor.id, targetKind: 'channel', targetId: userId, action: 'unsuspend', reason, label: accountLabel(user) });
      await this.queueMails(tx, [unsuspendedMail(user, this.link('/login'))]);
      await this.notice(tx, [userId], 'reinstated');
    });
  }

  // --- helpers ---

  private async existing(kind: ReportTargetKind, id: string): Promise<TargetRow> {
    const target = await this.repo.target(kind, id);
    if (!target.exists) throw notFound(m.targetNotFound);
    return target;
  }

  /** Moderators do not act on staff members' content; admins do (on anyone's). */
  private checkAgainstOwner(actor: StaffActor, target: TargetRow): void {
    const refusal = target.owner_role && target.owner_id !== actor.id ? canActAgainst(actor, target.owner_role) : null;
    if (refusal === 'staff' || (refusal === 'admin' && actor.role !== 'admin')) {
      throw forbidden(m.staffTarget);
    }
  }

  private async ownerMail(repo: ModerationRepository, target: TargetRow, build: (to: Recipient) => MailMessage): Promise<MailMessage[]> {
    return (await repo.recipients(target.owner_id ? [target.owner_id] : [])).map(build);
  }

  /** Each reporter once: what became of their report. */
  private outcomeMails(reporters: Recipient[], item: ItemName, outcome: 'dismissed' | 'actioned'): MailMessage[] {
    return reporters.map((to) => reportOutcomeMail(to, item, outcome, this.link('/my-reports')));
  }

  /**
   * The in-app notice of an outcome, beside its mail and in the same transaction (ARCHITECTURE §10).
   * `target` links the owner's notice to the item; reporters' notices lead to "My reports".
   */
  private async notice(
    tx: Executor,
    to: (string | null | Pick<Recipient, 'id'>)[],
    outcome: keyof typeof moderationOutcomes,
    about: { target?: TargetRow; reason?: string } = {},
  ): Promise<void> {
    const userIds = to.map((u) => (typeof u === 'string' || u === null ? u : u.id)).filter((u): u is string => u !== null);
    if (userIds.length === 0) return;
    const t = about.target;
    const subject = {
      outcome: moderationOutcomes[outcome],
      ...(about.reason ? { reason: about.reason } : {}),
      ...(t?.video_id ? { videoId: t.video_id } : t?.tweet_id ? { tweetId: t.tweet_id } : {}),
    };
    await recordEvent(tx, { kind: 'moderation', actorId: null, userIds, subject });
  }

  /** One job per mail, in the action's transaction: committed together or not at all. */
  private async queueMails(tx: Executor, mails: MailMessage[]): Promise<void> {
    const jobs = new JobsRepository(tx);
    for (const mail of mails) await jobs.enqueue(MODERATION_MAIL_QUEUE, mail, { maxAttempts: 5 });
  }

  private link(path: string): string {
    return `${this.ctx.config.publicUrl}${path}`;
  }

  /** Where the owner sees the item (and the notice): the watch page, the tweet, the comment's video or tweet. */
  private itemLink(t: TargetRow): string {
    if (t.video_id) return this.link(`/video/${t.video_id}`);
    if (t.tweet_id) return this.link(`/tweet/${t.tweet_id}`);
    return this.link('/');
  }
}

/** What a moderation notice says happened. */
const moderationOutcomes = {
  dismissed: 'Your report was reviewed: no action was taken',
  actioned: 'Your report was reviewed: the moderators acted on it',
  appealClosed: 'Your appeal was reviewed: the item stays removed',
  takenDown: 'Removed by the moderators',
  restored: 'Restored by the moderators',
  deleted: 'Deleted by the moderators',
  reinstated: 'Your account was reinstated',
} as const;

function itemName(t: TargetRow): ItemName {
  return { kind: t.target_kind === 'federatedComment' ? 'comment' : t.target_kind, label: t.label };
}
