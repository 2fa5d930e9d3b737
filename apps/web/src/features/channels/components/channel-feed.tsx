import { API_PREFIX, feedPaths, type FeedFormat } from '@glimpse/contract';
import { Rss } from 'lucide-react';
import { useEffect } from 'react';

const FEED_TYPES: Record<FeedFormat, string> = { rss: 'application/rss+xml', atom: 'application/atom+xml' };

/** The channel's feed as an absolute URL (feed readers and browsers' feed discovery want one). */
export const channelFeedUrl = (userName: string, format: FeedFormat) => `${window.location.origin}${API_PREFIX}${feedPaths.channel(userName, format)}`;

/**
 * Announces the channel's RSS and Atom feeds in the document head while the channel is shown, for
 * browser extensions and readers given the page's address. A link already there (the server's
 * first HTML carries the same ones) is left alone, and only the links added here are removed.
 */
export function useChannelFeedLinks(channel: { userName: string; fullName: string } | undefined) {
  const userName = channel?.userName;
  const fullName = channel?.fullName;
  useEffect(() => {
    if (userName === undefined || fullName === undefined) return;
    const added = (['rss', 'atom'] as const).flatMap((format) => {
      const href = channelFeedUrl(userName, format);
      const present = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="alternate"]')].some((l) => l.href === href);
      if (present) return [];
      const link = document.createElement('link');
      link.rel = 'alternate';
      link.type = FEED_TYPES[format];
      link.title = `${fullName} (${format === 'rss' ? 'RSS' : 'Atom'})`;
      link.href = href;
      document.head.append(link);
      return [link];
    });
    return () => added.forEach((link) => link.remove());
  }, [userName, fullName]);
}

/** The visible link to the channel's RSS feed. */
export function ChannelFeedLink({ userName }: { userName: string }) {
  return (
    <a
      href={channelFeedUrl(userName, 'rss')}
      type={FEED_TYPES.rss}
      className="inline-flex h-10 items-center gap-2 rounded-full bg-surface-subtle px-4 text-sm font-medium text-fg hover:bg-surface-strong"
    >
      <Rss className="size-4 text-warning" aria-hidden /> RSS
    </a>
  );
}
