// Small text helpers shared by the sidecar parsers.

/** Removes // line comments and /* block comments *\/ (block comments keep their newlines). */
export function stripComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      i += 2;
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) {
        if (text[i] === '\n') out += '\n';
        i++;
      }
      i += 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Splits into lines (LF, CRLF or CR). */
export function lines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
