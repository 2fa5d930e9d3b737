import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LADDER } from '@glimpse/media';
import { ConfigError, loadConfig } from './config.ts';
import { TEST_ENV } from '../test/harness.ts';

const env = { ...TEST_ENV, DATA_DIR: os.tmpdir() };

describe('the ladder an operator sets', () => {
  it('takes x264 presets per rung or one for all, and the defaults otherwise', () => {
    expect(loadConfig(env).media.ladder.rungs.map((r) => r.preset)).toEqual(DEFAULT_LADDER.rungs.map((r) => r.preset));
    const one = loadConfig({ ...env, LADDER_PRESET: 'veryfast', LADDER_FIRST_PRESET: 'ultrafast' }).media.ladder;
    expect(new Set(one.rungs.map((r) => r.preset))).toEqual(new Set(['veryfast']));
    expect(one.firstPassPreset).toBe('ultrafast');
    const each = loadConfig({ ...env, LADDER_PRESET: 'medium,slow,medium,veryfast,veryfast', LADDER_CRF: '25,25,25,23,23' }).media.ladder;
    expect(each.rungs.map((r) => [r.preset, r.crf])).toEqual([['medium', 25], ['slow', 25], ['medium', 25], ['veryfast', 23], ['veryfast', 23]]);
  });

  it('refuses a name x264 does not know, placebo, a wrong count, and names each bad key', () => {
    for (const bad of [{ LADDER_PRESET: 'fastest' }, { LADDER_PRESET: 'medium,,slow' }, { LADDER_PRESET: 'placebo' }, { LADDER_FIRST_PRESET: 'placebo' }]) {
      expect(() => loadConfig({ ...env, ...bad }), JSON.stringify(bad)).toThrow(new RegExp(Object.keys(bad)[0]!));
    }
    expect(() => loadConfig({ ...env, LADDER_PRESET: 'fast,slow' })).toThrow(ConfigError);
  });
});
