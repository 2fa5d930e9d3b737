import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { en, type MessageKey, type Messages } from './en.ts';
import es from './es.ts';
import fr from './fr.ts';
import { compileMessage, type FormatValues } from './message-format.ts';

/**
 * Values that are rightly the same as the English one: the word is the same in that language
 * (brand names, 'Notifications' in French, 'video' in Spanish). Anything else identical to
 * English is an untranslated string.
 */
const SAME_AS_ENGLISH: Record<'fr' | 'es', MessageKey[]> = {
  fr: ['settings.mailMention', 'live.fieldDescription', 'live.public', 'admin.total', 'admin.instance', 'admin.description', 'moderation.action', 'moderation.kindsTweets', 'moderation.itemVisible', 'moderation.targetTweet', 'shell.menu', 'nav.playlists', 'nav.notifications', 'nav.administration', 'nav.administrationShort', 'player.pause', 'player.auto', 'player.volume', 'dashboard.colActions', 'upload.description', 'channel.tweets', 'filter.type', 'filter.playlist'],
  es: ['nav.administrationShort', 'admin.stateReason', 'admin.total', 'admin.videos', 'moderation.kindsVideos', 'moderation.targetVideo', 'moderation.kindsTweets', 'moderation.itemVisible', 'moderation.targetTweet', 'moderation.targetOf', 'count.videos', 'chart.dayViews'],
};

type Node = { type: number; value?: string; options?: Record<string, { value: Node[] }>; children?: Node[] };
/** The names of a message's ICU arguments, with their kind (plain, number, plural...). */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      // 0 literal, 7 pound (#): no argument; 8 tag walks its children.
      if (n.type !== 0 && n.type !== 7 && n.value) names.add(`${n.value}:${n.type}`);
      if (n.options) Object.values(n.options).forEach((o) => walk(o.value));
      if (n.children) walk(n.children);
    }
  };
  walk(new IntlMessageFormat(message, 'en').getAst() as Node[]);
  return [...names].sort();
}

describe.each([
  ['fr', fr],
  ['es', es],
] as const)('the %s catalogue', (locale, messages: Messages) => {
  const keys = Object.keys(en) as MessageKey[];

  it('has every English key and no other', () => {
    expect(Object.keys(messages).sort()).toEqual([...keys].sort());
  });

  it('keeps the English placeholders of every message, and each parses', () => {
    const mismatched = keys.filter((k) => JSON.stringify(argumentsOf(messages[k])) !== JSON.stringify(argumentsOf(en[k])));
    expect(mismatched).toEqual([]);
  });

  it('translates every message (only allow-listed values equal the English)', () => {
    const same = keys.filter((k) => messages[k] === en[k] && !SAME_AS_ENGLISH[locale].includes(k));
    expect(same).toEqual([]);
    // The allow-list holds no stale entry.
    expect(SAME_AS_ENGLISH[locale].filter((k) => messages[k] !== en[k])).toEqual([]);
  });
});

/** Each argument's values worth trying: plural counts around the plural rules' edges, every select key and one unknown. */
function sampleValues(message: string): FormatValues[] {
  const choices = new Map<string, (string | number)[]>();
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      // 1 plain argument, 5 select, 6 plural.
      if (n.type === 1 && n.value && !choices.has(n.value)) choices.set(n.value, ['Zoë', 1234]);
      if (n.type === 5 && n.value) choices.set(n.value, [...Object.keys(n.options ?? {}), 'unlisted']);
      if (n.type === 6 && n.value) choices.set(n.value, [0, 1, 2, 5, 21, 1000000, 1.5]);
      if (n.options) Object.values(n.options).forEach((o) => walk(o.value));
    }
  };
  walk(new IntlMessageFormat(message, 'en').getAst() as Node[]);
  const most = Math.max(1, ...[...choices.values()].map((c) => c.length));
  return Array.from({ length: most }, (_, i) => Object.fromEntries([...choices].map(([name, c]) => [name, c[i % c.length]!])));
}

describe('compileMessage', () => {
  it.each([
    ['en', en],
    ['fr', fr],
    ['es', es],
  ] as const)('formats every %s message as intl-messageformat does', (locale, messages: Messages) => {
    const differing: string[] = [];
    let checked = 0;
    for (const [key, message] of Object.entries(messages)) {
      for (const values of sampleValues(message)) {
        const ours = compileMessage(message, locale)(values);
        const reference = String(new IntlMessageFormat(message, locale).format(values));
        checked++;
        if (ours !== reference) differing.push(`${key}: ${ours} ≠ ${reference}`);
      }
    }
    expect(differing).toEqual([]);
    expect(checked).toBeGreaterThan(Object.keys(messages).length);
  });

  it('keeps quoted text, doubled quotes and apostrophes in words', () => {
    expect(compileMessage("Name ''{name}'' isn't '{free}'", 'en')({ name: 'ana' })).toBe("Name 'ana' isn't {free}");
    expect(compileMessage("{n, plural, one {'#' is #} other {# items}}", 'en')({ n: 1 })).toBe('# is 1');
  });

  it('rejects what the catalogues may not use', () => {
    expect(() => compileMessage('{n, number}', 'en')).toThrow(SyntaxError);
    expect(() => compileMessage('{n, plural, one {x}}', 'en')).toThrow(SyntaxError);
    expect(() => compileMessage('open {n', 'en')).toThrow(SyntaxError);
    expect(() => compileMessage('stray }', 'en')).toThrow(SyntaxError);
  });
});
