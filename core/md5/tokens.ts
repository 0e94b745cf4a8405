// Tokens of an MD5 text (md5mesh, md5anim), each with its 0-based line and column: words,
// numbers, quoted strings, the punctuation `{ } ( )`, and `//` comments (kept: an md5mesh names
// its meshes in `// meshes: NAME` comments).
import { decimalIn, decimalPrefix, prefixEnd } from '../decimal';

export const enum Tok {
  Word,
  Number,
  String,
  Open,
  Close,
  ParenOpen,
  ParenClose,
  Comment,
  /** scan(): the end of the text. */
  End = -1,
  /** scan(): an unterminated string (`message` says so). */
  Error = -2,
}

export interface Md5Token {
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

/**
 * The tokens of a text one at a time, read in place: scan() finds the next one and leaves what it
 * is in the fields below (no object, no string: a 0.8 MB md5mesh has ~200,000 tokens, nearly all
 * numbers and punctuation, and an object and a string for each were most of its reading time);
 * token() makes the object of the one found when a caller needs it.
 */
export class Lexer {
  private p = 0;
  private lineNumber = 0;
  private lineStart = 0;
  /** The token scan() found: its kind, its text's offsets (a string's without its quotes, a comment's after `//`). */
  kind: Tok = Tok.End;
  start = 0;
  stop = 0;
  /** Its 0-based line, column and the column after it (a string: after its closing quote). */
  line = 0;
  column = 0;
  endColumn = 0;
  /** A Number's value (NaN otherwise). */
  value = NaN;
  /** The line of the last token found (0 before any). */
  lastLine = 0;

  constructor(private readonly text: string) {}

  /** The message of an Error token. */
  static readonly UNTERMINATED = 'unterminated string: no closing " on this line';

  /** From the start: the first unterminated string as an Error token's place, or null. */
  static firstError(text: string): Md5Token | null {
    const lexer = new Lexer(text);
    for (;;) {
      const kind = lexer.scan();
      if (kind === Tok.End) return null;
      if (kind === Tok.Error) return lexer.token();
    }
  }

  /** The token of the last scan() as an object (an Error's text is its message). */
  token(): Md5Token {
    const kind = this.kind;
    const text = kind === Tok.Error ? Lexer.UNTERMINATED : this.text.slice(this.start, this.stop);
    return { kind, text, value: this.value, line: this.line, column: this.column, end: this.endColumn };
  }

  /** Finds the next token; its kind (End at the end of the text, Error at an unterminated string, which ends the text). */
  scan(): Tok {
    const text = this.text;
    const n = text.length;
    let p = this.p;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === 10) {
        this.lineNumber++;
        p++;
        this.lineStart = p;
        continue;
      }
      if (c === 13) {
        this.lineNumber++;
        p += text.charCodeAt(p + 1) === 10 ? 2 : 1;
        this.lineStart = p;
        continue;
      }
      if (c === 32 || c === 9 || c === 0xfeff || c === 12 || c === 11) {
        p++;
        continue;
      }
      const lineStart = this.lineStart;
      this.line = this.lastLine = this.lineNumber;
      this.column = p - lineStart;
      this.value = NaN;
      if (c === 47 && text.charCodeAt(p + 1) === 47) {
        let e = p + 2;
        while (e < n && text.charCodeAt(e) !== 10 && text.charCodeAt(e) !== 13) e++;
        return this.found(Tok.Comment, p + 2, e, e, lineStart);
      }
      if (c === 34) {
        let e = p + 1;
        while (e < n && text.charCodeAt(e) !== 34 && text.charCodeAt(e) !== 10 && text.charCodeAt(e) !== 13) e++;
        if (e >= n || text.charCodeAt(e) !== 34) {
          this.found(Tok.Error, p, e, e, lineStart);
          this.p = n;
          return Tok.Error;
        }
        return this.found(Tok.String, p + 1, e, e + 1, lineStart);
      }
      const punct = c === 123 ? Tok.Open : c === 125 ? Tok.Close : c === 40 ? Tok.ParenOpen : c === 41 ? Tok.ParenClose : -1;
      if (punct >= 0) return this.found(punct as Tok, p, p + 1, p + 1, lineStart);
      // A number in one pass when the word is one (nearly every word); else to the word's end.
      let value = decimalPrefix(text, p, n);
      let e = prefixEnd.at;
      if (!endsWord(text, e, n)) {
        while (!endsWord(text, e, n)) e++;
        value = decimalIn(text, p, e);
      }
      this.value = value;
      return this.found(Number.isNaN(value) ? Tok.Word : Tok.Number, p, e, e, lineStart);
    }
    this.p = p;
    this.kind = Tok.End;
    return Tok.End;
  }

  /** Records the token found: text[start .. stop), the text resuming at `after`. */
  private found(kind: Tok, start: number, stop: number, after: number, lineStart: number): Tok {
    this.kind = kind;
    this.start = start;
    this.stop = stop;
    this.endColumn = after - lineStart;
    this.p = after;
    return kind;
  }

  /** Whether the token found is `word` (compared in place). */
  is(word: string): boolean {
    return this.stop - this.start === word.length && this.text.startsWith(word, this.start);
  }
}

/** Whether a word ends at text[e]: the text's end, white space, a line break, punctuation, a quote or `//`. */
function endsWord(text: string, e: number, n: number): boolean {
  if (e >= n) return true;
  const d = text.charCodeAt(e);
  return d === 32 || d === 9 || d === 10 || d === 13 || d === 123 || d === 125 || d === 40 || d === 41 || d === 34 || (d === 47 && text.charCodeAt(e + 1) === 47);
}
