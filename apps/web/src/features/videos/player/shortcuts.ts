import type { MessageKey } from '@/lib/i18n/i18n.ts';

export type PlayerAction =
  | 'toggle'
  | 'back'
  | 'forward'
  | 'stepBack'
  | 'stepForward'
  | 'volumeUp'
  | 'volumeDown'
  | 'mute'
  | 'fullscreen'
  | 'theatre'
  | 'pip'
  | 'captions'
  | 'slower'
  | 'faster'
  | 'help';

/** The shortcuts, in the order the help overlay lists them (one table: the handler reads it too). */
export const SHORTCUTS: { keys: string[]; label: MessageKey; action: PlayerAction | 'percent' }[] = [
  { keys: ['k', 'Space'], label: 'shortcut.toggle', action: 'toggle' },
  { keys: ['j'], label: 'shortcut.back', action: 'back' },
  { keys: ['l'], label: 'shortcut.forward', action: 'forward' },
  { keys: ['←'], label: 'shortcut.stepBack', action: 'stepBack' },
  { keys: ['→'], label: 'shortcut.stepForward', action: 'stepForward' },
  { keys: ['↑'], label: 'shortcut.volumeUp', action: 'volumeUp' },
  { keys: ['↓'], label: 'shortcut.volumeDown', action: 'volumeDown' },
  { keys: ['m'], label: 'shortcut.mute', action: 'mute' },
  { keys: ['<'], label: 'shortcut.slower', action: 'slower' },
  { keys: ['>'], label: 'shortcut.faster', action: 'faster' },
  { keys: ['0', '…', '9'], label: 'shortcut.percent', action: 'percent' },
  { keys: ['c'], label: 'shortcut.captions', action: 'captions' },
  { keys: ['t'], label: 'player.theatre', action: 'theatre' },
  { keys: ['i'], label: 'player.pip', action: 'pip' },
  { keys: ['f'], label: 'player.fullscreen', action: 'fullscreen' },
  { keys: ['?'], label: 'player.shortcuts', action: 'help' },
];

const KEYS: Record<string, PlayerAction> = {
  ' ': 'toggle',
  k: 'toggle',
  j: 'back',
  l: 'forward',
  arrowleft: 'stepBack',
  arrowright: 'stepForward',
  arrowup: 'volumeUp',
  arrowdown: 'volumeDown',
  m: 'mute',
  f: 'fullscreen',
  t: 'theatre',
  i: 'pip',
  c: 'captions',
  '<': 'slower',
  '>': 'faster',
  '?': 'help',
};

/** The action of a key (`KeyboardEvent.key`), or null. Digits are `percentFor`'s. */
export function shortcutFor(key: string): PlayerAction | null {
  return KEYS[key.toLowerCase()] ?? null;
}

/** 0..9 jump to 0%..90% of the video. */
export function percentFor(key: string): number | null {
  return /^[0-9]$/.test(key) ? Number(key) * 10 : null;
}

/** Arrow keys move sliders and lists: they are the player's only when nothing else takes them. */
export const isArrow = (key: string) => key.startsWith('Arrow');

/** Typing somewhere: no shortcut may fire (text fields, selects, editable text). Sliders and boxes are not typing. */
export function isTyping(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  return el instanceof HTMLInputElement && !['range', 'checkbox', 'radio', 'button', 'submit'].includes(el.type);
}
