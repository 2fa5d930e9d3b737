import type { ReactNode } from 'react';
import { Avatar } from '@/components/ui/avatar.tsx';
import { plural } from '@/lib/format.ts';
import type { Channel } from './types.ts';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * The channel header (spec §2): 5:1 cover, avatar, name, handle, subscriber and video
 * counts. Compact (docs/design.md): the cover is 5:1 up to 8rem high, then cropped, and the avatar
 * sits beside the name, so the tabs start near the top on a wide screen. `actions` holds Subscribe or Dashboard; `coverSrc`/`avatarSrc` show a pending
 * upload's preview; `coverControl`/`avatarControl` are the settings page's pickers.
 */
export function ChannelHeader({
  channel,
  actions,
  coverSrc,
  avatarSrc,
  coverControl,
  avatarControl,
}: {
  channel: Channel;
  actions?: ReactNode;
  coverSrc?: string | null;
  avatarSrc?: string | null;
  coverControl?: ReactNode;
  avatarControl?: ReactNode;
}) {
  const cover = coverSrc ?? channel.coverImage?.url;
  return (
    <header>
      <div className="relative aspect-[5/1] max-h-32 w-full overflow-hidden rounded-xl bg-gradient-to-r from-accent-muted to-surface-strong">
        {cover && <img src={cover} alt={t('channel.cover')} className="size-full object-cover" />}
        {coverControl && <div className="absolute right-2 top-2">{coverControl}</div>}
      </div>
      <div className="flex flex-wrap items-center gap-4 px-1 pt-3 sm:flex-nowrap">
        <div className="relative shrink-0">
          <Avatar src={avatarSrc ?? channel.avatar?.url} fullName={channel.fullName} size={150} className="!size-20 sm:!size-24" />
          {/* On the rim, clear of the initials. */}
          {avatarControl && <div className="absolute -bottom-2 -right-2">{avatarControl}</div>}
        </div>
        {/* A long name or handle wraps rather than losing its end. */}
        <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
          <h1 className="text-2xl font-bold">{channel.fullName}</h1>
          <p className="text-sm text-fg-muted">@{channel.userName}</p>
          <p className="text-sm text-fg-muted">
            {plural(channel.subscriberCount, 'count.subscribers')} · {plural(channel.videoCount, 'count.videos')}
          </p>
        </div>
        {actions && <div className="flex w-full shrink-0 gap-2 sm:w-auto">{actions}</div>}
      </div>
    </header>
  );
}
