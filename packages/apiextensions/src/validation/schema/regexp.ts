// Whether a schema `pattern` compiles as Go's regexp (RE2 syntax), with Go's error text for the usual mistakes.
// JavaScript's RegExp checks the syntax after Go-only forms are rewritten; constructs JavaScript accepts but RE2
// rejects (lookaround, backreferences) are refused first. Messages for rarer errors are approximations.

const GO_ONLY: [RegExp, string][] = [
  [/\(\?P</g, '(?<'], // named group, Python form
  [/\(\?[imsU]+(?:-[imsU]*)?\)/g, ''], // flag groups
  [/\(\?[imsU]*(?:-[imsU]*)?:/g, '(?:'], // flagged non-capturing groups
  [/\\A/g, '^'],
  [/\\z/g, '$'],
  [/\[:\^?[a-z]+:\]/g, 'a'], // POSIX classes inside brackets
  [/\\[pP][A-Za-z]/g, 'p'], // one-letter Unicode classes
];

function rewriteQuoted(pattern: string): string {
  return pattern.replace(/\\Q([\s\S]*?)(?:\\E|$)/g, (_, lit: string) => lit.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'));
}

/** `**`, `+*`, `?+` and the like outside character classes (RE2 has no possessive quantifiers). */
function nestedRepetition(pattern: string): string | undefined {
  let inClass = false;
  let prevRepeat = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      prevRepeat = false;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
      prevRepeat = false;
      continue;
    }
    if ((c === '*' || c === '+') && prevRepeat) return pattern.slice(i - 1, i + 1);
    prevRepeat = c === '*' || c === '+' || c === '?';
    if (c === '?' && (pattern[i - 1] === '*' || pattern[i - 1] === '+' || pattern[i - 1] === '?')) prevRepeat = false; // lazy
  }
  return undefined;
}

/** Go's error for a pattern, `error parsing regexp: <reason>: `<arg>``, or undefined when it compiles. */
export function goRegexpError(pattern: string): string | undefined {
  const err = (reason: string, arg: string): string => `error parsing regexp: ${reason}: \`${arg}\``;
  const look = /\(\?(<?[=!])/.exec(pattern);
  if (look) return err('invalid or unsupported Perl syntax', `(?${look[1][0]}`);
  const backref = /(?<!\\)(?:\\\\)*\\([1-9]|k<)/.exec(pattern);
  if (backref) return err('invalid escape sequence', `\\${backref[1][0]}`);
  if (/(?<!\\)(?:\\\\)*\\$/.test(pattern)) return err('trailing backslash at end of expression', '');
  const nested = nestedRepetition(pattern);
  if (nested) return err('invalid nested repetition operator', nested);
  let js = rewriteQuoted(pattern);
  for (const [from, to] of GO_ONLY) js = js.replace(from, to);
  try {
    new RegExp(js);
    return undefined;
  } catch (e) {
    const msg = (e as Error).message;
    if (/Unterminated group/.test(msg)) return err('missing closing )', pattern);
    if (/Unmatched '\)'/.test(msg)) return err('unexpected )', pattern);
    if (/Unterminated character class/.test(msg)) return err('missing closing ]', pattern.slice(pattern.lastIndexOf('[')));
    if (/Nothing to repeat/.test(msg)) {
      const op = /(?:^|[(|])([*+?]|\{\d+(?:,\d*)?\})/.exec(pattern);
      return err('missing argument to repetition operator', op ? op[1] : pattern);
    }
    if (/Range out of order/.test(msg)) {
      const range = /(.)-(.)/.exec(pattern.slice(pattern.lastIndexOf('[') + 1));
      return err('invalid character class range', range ? range[0] : pattern);
    }
    if (/numbers out of order/.test(msg)) return err('invalid repeat count', pattern);
    if (/Invalid group/.test(msg)) return err('invalid or unsupported Perl syntax', pattern.slice(pattern.indexOf('(?'), pattern.indexOf('(?') + 3));
    return err('invalid regular expression', pattern);
  }
}
