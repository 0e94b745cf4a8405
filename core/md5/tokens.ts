// Tokens of an MD5 text (md5mesh, md5anim), each with its 0-based line and column: words,
// numbers, quoted strings, the punctuation `{ } ( )`, and `//` comments (kept: an md5mesh names
// its meshes in `// meshes: NAME` comments).

export const enum Tok {
  Word,
  Number,
  String,
  Open,
  Close,
  ParenOpen,
  ParenClose,
  Comment,
}

export interface Token {
  kind: Tok;
  /** The word, the string without its quotes, the comment after `//`, or the punctuation. */
  text: string;
  /** The value of a Number token (NaN otherwise). */
  value: number;
  line: number;
  column: number;
  /** Column after the token (a string: after its closing quote). */
  end: number;
}

/** An error of the tokenizer: an unterminated string. */
export interface TokenError {
  line: number;
  column: number;
  end: number;
  message: string;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The tokens of `text`, or the first error. */
export function tokenize(text: string): { tokens: Token[]; error: TokenError | null } {
  const tokens: Token[] = [];
  let line = 0;
  let lineStart = 0;
  let p = 0;
  const n = text.length;
  while (p < n) {
    const c = text.charCodeAt(p);
    if (c === 10) {
      line++;
      p++;
      lineStart = p;
      continue;
    }
    if (c === 13) {
      line++;
      p += text.charCodeAt(p + 1) === 10 ? 2 : 1;
      lineStart = p;
      continue;
    }
    if (c === 32 || c === 9 || c === 0xfeff || c === 12 || c === 11) {
      p++;
      continue;
    }
    const column = p - lineStart;
    if (c === 47 && text.charCodeAt(p + 1) === 47) {
      let e = p + 2;
      while (e < n && text.charCodeAt(e) !== 10 && text.charCodeAt(e) !== 13) e++;
      tokens.push({ kind: Tok.Comment, text: text.slice(p + 2, e), value: NaN, line, column, end: e - lineStart });
      p = e;
      continue;
    }
    if (c === 34) {
      let e = p + 1;
      while (e < n && text.charCodeAt(e) !== 34 && text.charCodeAt(e) !== 10 && text.charCodeAt(e) !== 13) e++;
      if (e >= n || text.charCodeAt(e) !== 34) return { tokens, error: { line, column, end: e - lineStart, message: 'unterminated string: no closing " on this line' } };
      tokens.push({ kind: Tok.String, text: text.slice(p + 1, e), value: NaN, line, column, end: e + 1 - lineStart });
      p = e + 1;
      continue;
    }
    const punct = c === 123 ? Tok.Open : c === 125 ? Tok.Close : c === 40 ? Tok.ParenOpen : c === 41 ? Tok.ParenClose : -1;
    if (punct >= 0) {
      tokens.push({ kind: punct as Tok, text: text[p], value: NaN, line, column, end: column + 1 });
      p++;
      continue;
    }
    let e = p;
    while (e < n) {
      const d = text.charCodeAt(e);
      if (d === 32 || d === 9 || d === 10 || d === 13 || d === 123 || d === 125 || d === 40 || d === 41 || d === 34 || (d === 47 && text.charCodeAt(e + 1) === 47)) break;
      e++;
    }
    const word = text.slice(p, e);
    const isNumber = NUMBER.test(word);
    tokens.push({ kind: isNumber ? Tok.Number : Tok.Word, text: word, value: isNumber ? Number(word) : NaN, line, column, end: e - lineStart });
    p = e;
  }
  return { tokens, error: null };
}
