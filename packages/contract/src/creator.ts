import { z } from 'zod';
import { id } from './common.ts';
import { owner } from './users.ts';

/** Watched words (issue #12 item 5): an admin's list; content containing one is held for review. */
export const WATCHED_WORD_MAX = 100;
export const WATCHED_WORDS_LIMIT = 1000;

export const watchedWordMessages = {
  fetched: 'Watched words fetched successfully',
  added: 'Watched word added',
  removed: 'Watched word removed',
  required: 'Enter a word or phrase',
  duplicate: 'This word is already watched',
  full: `The list holds at most ${WATCHED_WORDS_LIMIT} words`,
  notFound: 'Watched word not found',
} as const;

export const watchedWordBody = z.object({
  word: z
    .string({ message: watchedWordMessages.required })
    .trim()
    .min(1, watchedWordMessages.required)
    .max(WATCHED_WORD_MAX, `A watched word must be at most ${WATCHED_WORD_MAX} characters`),
});
export type WatchedWordBody = z.infer<typeof watchedWordBody>;
export const watchedWordParams = z.object({ id });

export const watchedWord = z.object({ _id: z.string(), word: z.string(), createdAt: z.string() });
export type WatchedWord = z.infer<typeof watchedWord>;
/** The whole list (bounded by WATCHED_WORDS_LIMIT), alphabetical. */
export const watchedWordList = z.object({ words: z.array(watchedWord) });

/** Users a channel blocked from commenting on its videos and tweets (issue #12 item 6). */
export const channelBlockMessages = {
  blocked: 'User blocked from commenting on your channel',
  unblocked: 'User unblocked',
  fetched: 'Blocked users fetched successfully',
  notSelf: 'You cannot block yourself',
  notBlocked: 'This user is not blocked',
  userNotFound: 'User not found',
  loginRequired: 'Please login to manage blocked users',
} as const;

export const channelBlockBody = z.object({ userId: id });
export const channelBlockParams = z.object({ userId: id });
export const channelBlock = z.object({ user: owner, blockedAt: z.string() });
export type ChannelBlock = z.infer<typeof channelBlock>;
