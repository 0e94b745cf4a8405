// Tokens of an MD5 text (md5mesh, md5anim), each with its 0-based line and column: words,
// numbers, quoted strings, the punctuation `{ } ( )`, and `//` comments (kept: an md5mesh names
// its meshes in `// meshes: NAME` comments).
import { decimalValue } from '../decimal';

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


/**
 * The tokens of a text one at a time (the readers take them in order: a token is garbage as soon
 * as it is read, where a list of all of them kept a 0.8 MB md5mesh's ~200,000 objects alive through
 * every young-generation collection). `skim` runs through the text without making tokens: the
 * first error, and the line of the last token.
 */
export class Lexer {
  private p = 0;
  private line = 0;
  private lineStart = 0;
  constructor(private readonly text: string) {}

  /** The next token, null at the end, or the error it stops at. */
  next(): Token | TokenError | null {
    return this.advance(true) as Token | TokenError | null;
  }

  /** From the start: the first error (or null) and the line of the last token (0 without any). */
  static skim(text: string): { error: TokenError | null; lastLine: number } {
    const lexer = new Lexer(text);
    let lastLine = 0;
    for (;;) {
      const t = lexer.advance(false);
      if (t === null) return { error: null, lastLine };
      if (t !== SKIMMED) return { error: t as TokenError, lastLine };
      lastLine = lexer.tokenLine;
    }
  }

  /** The line of the token the last advance found. */
  private tokenLine = 0;

  /** Finds the next token: made when `make`, else SKIMMED; null at the end; the error at an unterminated string. */
  private advance(make: boolean): Token | TokenError | typeof SKIMMED | null {
    const text = this.text;
    const n = text.length;
    let p = this.p;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === 10) {
        this.line++;
        p++;
        this.lineStart = p;
        continue;
      }
      if (c === 13) {
        this.line++;
        p += text.charCodeAt(p + 1) === 10 ? 2 : 1;
        this.lineStart = p;
        continue;
      }
      if (c === 32 || c === 9 || c === 0xfeff || c === 12 || c === 11) {
        p++;
        continue;
      }
      const line = this.line, lineStart = this.lineStart;
      const column = p - lineStart;
      this.tokenLine = line;
      if (c === 47 && text.charCodeAt(p + 1) === 47) {
        let e = p + 2;
        while (e < n && text.charCodeAt(e) !== 10 && text.charCodeAt(e) !== 13) e++;
        this.p = e;
        return make ? { kind: Tok.Comment, text: text.slice(p + 2, e), value: NaN, line, column, end: e - lineStart } : SKIMMED;
      }
      if (c === 34) {
        let e = p + 1;
        while (e < n && text.charCodeAt(e) !== 34 && text.charCodeAt(e) !== 10 && text.charCodeAt(e) !== 13) e++;
        if (e >= n || text.charCodeAt(e) !== 34) {
          this.p = n;
          return { line, column, end: e - lineStart, message: 'unterminated string: no closing " on this line' };
        }
        this.p = e + 1;
        return make ? { kind: Tok.String, text: text.slice(p + 1, e), value: NaN, line, column, end: e + 1 - lineStart } : SKIMMED;
      }
      const punct = c === 123 ? Tok.Open : c === 125 ? Tok.Close : c === 40 ? Tok.ParenOpen : c === 41 ? Tok.ParenClose : -1;
      if (punct >= 0) {
        this.p = p + 1;
        return make ? { kind: punct as Tok, text: text[p], value: NaN, line, column, end: column + 1 } : SKIMMED;
      }
      let e = p;
      while (e < n) {
        const d = text.charCodeAt(e);
        if (d === 32 || d === 9 || d === 10 || d === 13 || d === 123 || d === 125 || d === 40 || d === 41 || d === 34 || (d === 47 && text.charCodeAt(e + 1) === 47)) break;
        e++;
      }
      this.p = e;
      if (!make) return SKIMMED;
      const word = text.slice(p, e);
      const value = decimalValue(word);
      return { kind: Number.isNaN(value) ? Tok.Word : Tok.Number, text: word, value, line, column, end: e - lineStart };
    }
    this.p = p;
    return null;
  }
}

/** What Lexer.advance gives for a token it was asked not to make. */
const SKIMMED = 0;

/** Whether a lexer result is its error. */
export function isTokenError(t: Token | TokenError): t is TokenError {
  return (t as Partial<Token>).kind === undefined;
}
