// Where a JSON text is broken and why, in one line. JSON.parse's messages differ between engines
// and some carry an excerpt of the input (newlines included: "Unexpected token '}', "{\n "a"..."
// is not valid JSON") with no position at all; a .gltf's error needs the real line and column.
// Run only after JSON.parse has refused the text. Iterative: nesting depth costs no stack.

/** The first syntax error of `text`: its offset (UTF-16 code units) and what is wrong; null when there is none. */
export function jsonSyntaxError(text: string): { offset: number; message: string } | null {
  let i = 0;
  const n = text.length;
  /** The open containers: 'o' object, 'a' array; with the offset each opened at. */
  const open: { kind: 'o' | 'a'; at: number }[] = [];
  const space = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      i++;
    }
  };
  const found = (): string => (i >= n ? 'the end of the text' : describe(text, i));
  const error = (message: string, at = i): { offset: number; message: string } => ({ offset: at, message });
  const endError = (): { offset: number; message: string } => {
    const top = open[open.length - 1];
    return error(top ? `the text ends inside the ${top.kind === 'o' ? 'object' : 'array'} opened at ${place(text, top.at)}` : 'the text ends before a value');
  };

  // Each step reads one value (after which the container's separator or end is read).
  for (;;) {
    space();
    if (i >= n) return endError();
    const c = text[i];
    if (c === '{' || c === '[') {
      open.push({ kind: c === '{' ? 'o' : 'a', at: i });
      i++;
      space();
      if (i < n && text[i] === (c === '{' ? '}' : ']')) {
        open.pop();
        i++;
      } else if (c === '{') {
        const member = memberName();
        if (member) return member;
        continue;
      } else continue;
    } else if (c === '"') {
      const bad = string();
      if (bad) return bad;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const bad = number();
      if (bad) return bad;
    } else if (text.startsWith('true', i) || text.startsWith('null', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else return i >= n ? endError() : error(`expected a value, found ${found()}`);

    // After a value: the separator or the end of its container(s).
    for (;;) {
      space();
      const top = open[open.length - 1];
      if (!top) return i < n ? error(`${found()} after the end of the JSON value`) : null;
      if (i >= n) return endError();
      const close = top.kind === 'o' ? '}' : ']';
      if (text[i] === close) {
        open.pop();
        i++;
        continue;
      }
      if (text[i] !== ',') return error(`expected ',' or '${close}' after ${top.kind === 'o' ? 'a member of the object' : 'an element of the array'} opened at ${place(text, top.at)}, found ${found()}`);
      i++;
      if (top.kind === 'o') {
        space();
        const member = memberName();
        if (member) return member;
      }
      break;
    }
  }

  /** An object's member name and its ':' (the value follows). */
  function memberName(): { offset: number; message: string } | null {
    space();
    if (i >= n) return endError();
    if (text[i] !== '"') return error(`expected a member name in double quotes, found ${found()}`);
    const bad = string();
    if (bad) return bad;
    space();
    if (i >= n) return endError();
    if (text[i] !== ':') return error(`expected ':' after the member name, found ${found()}`);
    i++;
    return null;
  }

  function string(): { offset: number; message: string } | null {
    const start = i;
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return null;
      }
      if (c < 0x20) return error(`${c === 0x0a || c === 0x0d ? 'a line break' : `control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`} inside the string that starts at ${place(text, start)} (write it as an escape)`);
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return error("'\\u' is not followed by 4 hexadecimal digits");
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) return error(`${e === undefined ? "'\\' at the end of the text" : `escape '\\${e}'`} is not a JSON escape`);
        i += 2;
        continue;
      }
      i++;
    }
    return error(`the string that starts at ${place(text, start)} is not closed`, start);
  }

  function number(): { offset: number; message: string } | null {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    const start = i;
    if (!m) return error(`expected a value, found ${found()}`);
    i += m[0].length;
    // JSON has no leading zeros, no '1.' and no '.5'; whatever follows a number is the separator's to judge.
    if (m[1] === '0' && /[0-9]/.test(text[i] ?? '')) return error('a number with a leading zero', start);
    if (text[i] === '.' || ((text[i] === 'e' || text[i] === 'E') && m[3] === undefined)) return error('a number that is not written as JSON writes numbers', start);
    return null;
  }
}

/** A JSON number from where it is tried (sticky). */
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/** `line 3, column 14` (1-based) of an offset. */
function place(text: string, offset: number): string {
  const { line, column } = lineAndColumn(text, offset);
  return `line ${line + 1}, column ${column + 1}`;
}

/** The 0-based line and column (UTF-16 code units) of `offset`; \r\n, \r and \n end a line. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 0, lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(k + 1) !== 0x0a)) {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart };
}

/** What is at `at`, for a message: `'}'`, `'tru'`, `a line break`. */
function describe(text: string, at: number): string {
  const c = text.charCodeAt(at);
  if (c === 0x0a || c === 0x0d) return 'a line break';
  if (c < 0x20 || c === 0x7f) return `control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  const word = /^[A-Za-z0-9_$.+-]+/.exec(text.slice(at, at + 24));
  const shown = word ? word[0].slice(0, 20) : String.fromCodePoint(text.codePointAt(at)!);
  return `'${shown}'`;
}
