import type { ReactNode } from 'react';
import { Avatar } from '@/components/ui/avatar.tsx';
import { plural } from '@/lib/format.ts';
import type { Channel } from './types.ts';

/**
 * The channel header (spec §2): 5:1 cover, avatar, name, handle, subscriber and video
 * counts. `actions` holds Subscribe or Dashboard; `coverSrc`/`avatarSrc` show a pending
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
      <div className="relative aspect-[5/1] w-full overflow-hidden rounded-xl bg-gradient-to-r from-blue-100 to-zinc-200">
        {cover && <img src={cover} alt="Cover image" className="size-full object-cover" />}
        {coverControl && <div className="absolute right-2 top-2">{coverControl}</div>}
      </div>
      <div className="flex flex-wrap items-center gap-4 px-1 pt-4 sm:flex-nowrap">
        <div className="relative -mt-10 shrink-0 rounded-full border-4 border-white bg-white sm:-mt-14">
          <Avatar src={avatarSrc ?? channel.avatar?.url} fullName={channel.fullName} size={150} className="!size-20 sm:!size-[150px]" />
          {avatarControl && <div className="absolute bottom-0 right-0">{avatarControl}</div>}
        </div>
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-2xl font-bold">{channel.fullName}</h1>
          <p className="truncate text-sm text-zinc-600">@{channel.userName}</p>
          <p className="text-sm text-zinc-600">
            {plural(channel.subscriberCount, 'subscriber')} · {plural(channel.videoCount, 'video')}
          </p>
        </div>
        {actions && <div className="flex w-full shrink-0 gap-2 sm:w-auto">{actions}</div>}
      </div>
    </header>
  );
}
