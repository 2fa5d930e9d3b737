import { describe, expect, it } from 'vitest';
import { parseStartTime, readPrefs, savePrefs, stepSpeed } from './prefs.ts';
import { isTyping, percentFor, shortcutFor } from './shortcuts.ts';

describe('player preferences', () => {
  it('remembers volume, speed and captions, and ignores what is corrupt or out of range', () => {
    expect(readPrefs()).toEqual({ volume: 1, muted: false, speed: 1, captions: null, theatre: false });
    savePrefs({ volume: 0.4, speed: 1.5 });
    savePrefs({ captions: 'fr' });
    expect(readPrefs()).toMatchObject({ volume: 0.4, speed: 1.5, captions: 'fr' });
    localStorage.setItem('glimpse:player', JSON.stringify({ volume: 7, speed: 3, captions: 4 }));
    expect(readPrefs()).toMatchObject({ volume: 1, speed: 1, captions: null });
    localStorage.setItem('glimpse:player', '{not json');
    expect(readPrefs().speed).toBe(1);
  });

  it('steps the speed through 0.25x..2x, staying at the ends', () => {
    expect(stepSpeed(1, 1)).toBe(1.25);
    expect(stepSpeed(1, -1)).toBe(0.75);
    expect(stepSpeed(2, 1)).toBe(2);
    expect(stepSpeed(0.25, -1)).toBe(0.25);
  });

  it('reads ?t= start times', () => {
    expect(['90', '90s', '1m30s', '1m', '1h2m3s', '1:30', '1:02:03'].map(parseStartTime)).toEqual([90, 90, 90, 60, 3723, 90, 3723]);
    expect([null, '', 'abc', 'm', '1x', '-5'].map(parseStartTime)).toEqual([null, null, null, null, null, null]);
  });
});

describe('player shortcuts', () => {
  it('maps keys to actions and digits to a percentage', () => {
    expect([' ', 'k', 'K', 'j', 'l', 'ArrowLeft', 'ArrowUp', 'm', 'f', 't', 'i', 'c', '<', '>', '?', 'x'].map(shortcutFor)).toEqual([
      'toggle',
      'toggle',
      'toggle',
      'back',
      'forward',
      'stepBack',
      'volumeUp',
      'mute',
      'fullscreen',
      'theatre',
      'pip',
      'captions',
      'slower',
      'faster',
      'help',
      null,
    ]);
    expect(['0', '5', '9', 'a'].map(percentFor)).toEqual([0, 50, 90, null]);
  });

  it('never fires while typing; sliders and buttons are not typing', () => {
    const el = (html: string) => {
      const box = document.createElement('div');
      box.innerHTML = html;
      return box.firstElementChild;
    };
    expect(isTyping(el('<input type="text">'))).toBe(true);
    expect(isTyping(el('<input>'))).toBe(true);
    expect(isTyping(el('<textarea></textarea>'))).toBe(true);
    expect(isTyping(el('<select></select>'))).toBe(true);
    expect(isTyping(el('<input type="range">'))).toBe(false);
    expect(isTyping(el('<button></button>'))).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});
