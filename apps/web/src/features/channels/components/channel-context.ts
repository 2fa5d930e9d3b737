import { useOutletContext } from 'react-router';
import type { Channel } from '@/components/media/types.ts';

/** What the channel layout hands its tabs. */
export interface ChannelContext {
  channel: Channel;
  isOwner: boolean;
}

export const useChannelContext = () => useOutletContext<ChannelContext>();
