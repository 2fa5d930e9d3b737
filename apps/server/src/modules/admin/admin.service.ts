import { adminMessages, type AdminOverview, type AdminUser, type AdminUsersQuery, type Role } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { ApiError, conflict, notFound } from '../../lib/errors.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import type { Viewer } from '../../identity/access-token.ts';
import { ModerationRepository } from '../moderation/moderation.repository.ts';
import { TRANSCODE_QUEUE } from '../transcode/queue.ts';
import { UsersRepository, type UserRow } from '../users/users.repository.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { AdminRepository } from './admin.repository.ts';

const toAdminUser = (u: UserRow, videos: number): AdminUser => ({
  _id: u.id,
  userName: u.userName,
  fullName: u.fullName,
  email: u.email,
  role: u.role,
  state: u.state,
  stateReason: u.stateReason,
  suspendedUntil: u.suspendedUntil?.toISOString() ?? null,
  emailVerified: u.emailVerifiedAt !== null,
  videos,
  createdAt: u.createdAt.toISOString(),
});

/** The staff area: the instance at a glance, failed transcodes, accounts and roles. */
export class AdminService {
  private readonly admin: AdminRepository;

  constructor(private readonly ctx: AppContext) {
    this.admin = new AdminRepository(ctx.db);
  }

  async overview(): Promise<AdminOverview> {
    const [users, videos, moderation, jobs, failed] = await Promise.all([
      this.admin.userCounts(),
      this.admin.videoCounts(),
      this.admin.moderationCounts(),
      this.admin.transcodeJobs(),
      this.admin.failedVideos(),
    ]);
    const { storageBytes, ...accounts } = users;
    return {
      users: accounts,
      videos,
      storage: { bytes: storageBytes },
      moderation,
      transcodes: { ...jobs, failed: failed.map((f) => ({ ...f, failedAt: f.failedAt.toISOString() })) },
    };
  }

  /** Queues a failed video's transcode again (after a stall or an engine problem that is fixed now). */
  async retryTranscode(videoId: string): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const videos = new VideosRepository(tx);
      const video = await videos.findRow(videoId);
      if (!video) throw notFound('Video not found');
      if (video.status !== 'failed') throw conflict(adminMessages.onlyFailedRetry);
      if (!video.sourceKey) throw conflict(adminMessages.sourceGone);
      await videos.setProcessing(videoId, { status: 'processing', progress: 0, failureReason: null });
      await new JobsRepository(tx).enqueue(TRANSCODE_QUEUE, { videoId }, { ownerId: video.ownerId });
    });
  }

  async users(q: AdminUsersQuery) {
    const rows = await this.admin.users(q, pageWindow(q));
    return pageOf('users', rows.map((r) => toAdminUser(r.user, r.videos)), q, (u) => u._id);
  }

  /** Admins appoint moderators and admins from the web as `npm run admin` does from the shell; the moderation log records it. */
  async setRole(actor: Viewer, userId: string, role: Role): Promise<{ _id: string; role: Role }> {
    // Nobody demotes themselves, so the admin acting always remains: there is never no admin.
    if (actor.id === userId) throw new ApiError(409, adminMessages.ownRole);
    return this.ctx.db.transaction(async (tx) => {
      const users = new UsersRepository(tx);
      const before = await users.findById(userId);
      const updated = before && (await users.setRole(userId, role));
      if (!updated) throw notFound('User not found');
      await new ModerationRepository(tx).logRoleChange(actor.id, before.role, updated);
      return { _id: updated.id, role: updated.role };
    });
  }
}
