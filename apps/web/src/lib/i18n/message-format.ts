/**
 * The part of ICU MessageFormat the catalogues use: `{name}`, `{n, plural, =0 {…} one {# …} other {…}}`
 * and `{key, select, a {…} other {…}}`, nested, with ICU's apostrophe quoting (`''` is a quote,
 * `'{…}'` is literal text). It replaces intl-messageformat on the first load (ADR 017: ~11 KB gzip of
 * parser for some 100 short messages); catalogues.test.ts checks it against intl-messageformat on
 * every message of every catalogue. Anything else (number or date skeletons, tags) is an error at
 * compile time, so a catalogue cannot use it by accident.
 */
type Part = string | { arg: string } | { pound: true } | { arg: string; kind: 'plural' | 'select'; options: Record<string, Part[]> };

export type FormatValues = Record<string, string | number>;

/** Parses `message` once; the returned function formats it for the given values. */
export function compileMessage(message: string, locale: string): (values?: FormatValues) => string {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at ${i} in message: ${message}`);
  };

  const parseParts = (inPlural: boolean, nested: boolean): Part[] => {
    const parts: Part[] = [];
    let text = '';
    while (i < message.length) {
      const c = message[i]!;
      if (c === '}') {
        if (!nested) fail('Unexpected }');
        break;
      }
      if (c === '{') {
        if (text) parts.push(text);
        text = '';
        parts.push(parseArgument());
      } else if (c === '#' && inPlural) {
        if (text) parts.push(text);
        text = '';
        parts.push({ pound: true });
        i++;
      } else if (c === "'") {
        text += parseApostrophe(inPlural);
      } else {
        text += c;
        i++;
      }
    }
    if (text) parts.push(text);
    return parts;
  };

  // ICU's apostrophe rule: '' is one quote; a quote before a syntax character starts quoted text.
  const parseApostrophe = (inPlural: boolean): string => {
    const next = message[i + 1];
    if (next === "'") {
      i += 2;
      return "'";
    }
    if (next === undefined || !(next === '{' || next === '}' || (inPlural && next === '#'))) {
      i++;
      return "'";
    }
    let quoted = '';
    i++;
    while (i < message.length) {
      if (message[i] === "'") {
        if (message[i + 1] === "'") {
          quoted += "'";
          i += 2;
          continue;
        }
        i++;
        return quoted;
      }
      quoted += message[i++];
    }
    return quoted;
  };

  const word = (): string => {
    const m = /^\s*([^\s{}#',]+)\s*/.exec(message.slice(i));
    if (!m) return fail('Expected a name');
    i += m[0].length;
    return m[1]!;
  };

  const parseArgument = (): Part => {
    i++; // {
    const arg = word();
    if (message[i] === '}') {
      i++;
      return { arg };
    }
    if (message[i] !== ',') fail('Expected , or }');
    i++;
    const kind = word();
    if (kind !== 'plural' && kind !== 'select') return fail(`Unsupported argument type "${kind}"`);
    if (message[i] !== ',') fail('Expected ,');
    i++;
    const options: Record<string, Part[]> = {};
    for (;;) {
      while (/\s/.test(message[i] ?? '')) i++;
      if (message[i] === '}') break;
      const key = word();
      if (message[i] !== '{') fail('Expected {');
      i++;
      options[key] = parseParts(kind === 'plural', true);
      if (message[i] !== '}') fail('Expected }');
      i++;
    }
    if (!options.other) fail('Missing "other" option');
    i++;
    return { arg, kind, options };
  };

  const parts = parseParts(false, false);
  let plurals: Intl.PluralRules | undefined;
  let numbers: Intl.NumberFormat | undefined;

  const format = (list: Part[], values: FormatValues, count: number | undefined): string => {
    let out = '';
    for (const part of list) {
      if (typeof part === 'string') out += part;
      else if ('pound' in part) out += (numbers ??= new Intl.NumberFormat(locale)).format(count ?? 0);
      else if (!('kind' in part)) out += String(values[part.arg] ?? '');
      else if (part.kind === 'select') out += format(part.options[String(values[part.arg])] ?? part.options.other!, values, count);
      else {
        const n = Number(values[part.arg]);
        const option = part.options[`=${n}`] ?? part.options[(plurals ??= new Intl.PluralRules(locale)).select(n)] ?? part.options.other!;
        out += format(option, values, n);
      }
    }
    return out;
  };

  return (values = {}) => format(parts, values, undefined);
}
