import { describe, expect, it } from 'vitest';
import { buildMatcher } from './watched-words.matcher.ts';

// The matcher alone (no database): the engines' part is in creator-moderation.test.ts.
describe('watched-words matcher', () => {
  it('matches whole words and phrases at Unicode word boundaries, whatever the case', () => {
    const m = buildMatcher(['ass', 'bad apple', 'Köln', 'ñu']);
    expect(m.find('what an ASS.')).toBe('ASS');
    expect(m.find('a first class seat, assorted bass')).toBeNull();
    expect(m.find('one Bad\n  Apple spoils')).toBe('Bad\n  Apple');
    expect(m.find('bad apples')).toBeNull();
    expect(m.find('greetings from KÖLN!')).toBe('KÖLN');
    expect(m.find('Kölner Dom')).toBeNull();
    expect(m.find('el ñu corre')).toBe('ñu');
    expect(m.find('señuelo')).toBeNull();
    expect(m.find('ass_hat and ass1')).toBeNull();
  });

  it('matches a regex-like word literally: nothing of it is compiled as a pattern', () => {
    const m = buildMatcher(['a.*(b+)+$', 'c++', '[x]', '(a+)+$']);
    expect(m.find('abbbb')).toBeNull();
    expect(m.find('say a.*(b+)+$ now')).toBe('a.*(b+)+$');
    expect(m.find('I write c++!')).toBe('c++');
    expect(m.find('cpp')).toBeNull();
    expect(m.find('x')).toBeNull();
    expect(m.find('tick [x] here')).toBe('[x]');
    // Catastrophic for a compiled `(a+)+$`; literal words keep the scan linear in the text.
    expect(m.find(`${'a'.repeat(10_000)}!`)).toBeNull();
    expect(m.find(`${'a '.repeat(5_000)}(a+)+$`)).toBe('(a+)+$');
  });

  it('prefers the longest phrase and never matches with an empty list', () => {
    expect(buildMatcher(['bad', 'bad apple']).find('a bad apple')).toBe('bad apple');
    expect(buildMatcher([]).find('anything at all')).toBeNull();
    expect(buildMatcher(['   ']).find('   ')).toBeNull();
  });
});
