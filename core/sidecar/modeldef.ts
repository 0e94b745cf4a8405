// GZDoom / UZDoom MODELDEF, read as the engine reads it: the tokens of its "classic Hexen" script
// scanner and the statements of ParseModelDefLump, with a position for every token. Pure: which
// files exist and what the models hold is core/sidecarCheck/modeldef.ts's.
//
// Engine sources (cited by repository, path, commit and the function or label the rule is in):
// - Scanner: UZDoom/UZDoom src/common/engine/sc_man_scanner.re @2c5d2eebff2ebdb93c0f28e83e6e25c19cda37b7,
//   the `if (!CMode)` block: `//` and `;` comment to the line end, `/* */` comments, `"` strings,
//   `{ } | =` are tokens of their own, any other run of non-space characters (STOP1 excluded) is one
//   token; a `/` not followed by `*` may be inside a token.
// - Statements: ZDoom/gzdoom src/r_data/models.cpp @a36382cbcdbe1d6cd5a364c50e2ce635ff1811a7,
//   ParseModelDefLump (from character 18,000 of that file): keywords compared case-insensitively
//   (sc.Compare); the table KEYWORDS below is that function's, argument by argument.
// - Limits: ZDoom/gzdoom src/common/models/model.h (MD3_MAX_SURFACES 32, MIN_MODELS 4,
//   `uint8_t modelsAmount`).
// - UZDoom's ParseModelDefLump: UZDoom/UZDoom src/r_data/models.cpp
//   @1841de043410c7de09278a3875798055f72f8735 (from character 26,000; lines not counted): GZDoom's
//   statements, and `viewmodelfov F` (a float; above 0 it is capped at 175), `baseframe` (the
//   definition so far becomes the actor's base frame, which decoupled animations use),
//   `correctpixelstretch` and `forcecullbackfaces` (flags). The dialect `uzdoom` reads those too.

import type { Range } from '../iqe/diagnostic';
import { quotedName } from '../names';

/** One token: 0-based line, UTF-16 columns, end exclusive (a string may end on a later line). */
export interface ModeldefToken {
  /** The text the engine reads (a string's contents, without its quotes). */
  text: string;
  quoted: boolean;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** The tokens of a MODELDEF text, as the engine's scanner splits it. */
export function tokenizeModeldef(text: string): ModeldefToken[] {
  const out: ModeldefToken[] = [];
  let i = 0;
  let line = 0;
  let lineStart = 0;
  const n = text.length;
  const newline = (at: number): void => {
    line++;
    lineStart = at + 1;
  };
  const isSpace = (c: number): boolean => c <= 32;
  // STOP1 of the scanner: `{ } | =`, `"`, `/` (only as a comment start) and `;`.
  const isStop = (ch: string): boolean => ch === '{' || ch === '}' || ch === '|' || ch === '=' || ch === '"' || ch === ';';
  while (i < n) {
    const ch = text[i];
    const code = text.charCodeAt(i);
    if (ch === '\n') {
      newline(i);
      i++;
    } else if (ch === '\r') {
      if (text[i + 1] !== '\n') newline(i);
      i++;
    } else if (isSpace(code)) {
      i++;
    } else if ((ch === '/' && text[i + 1] === '/') || ch === ';') {
      while (i < n && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      i += 2;
      while (i < n && !(text[i] === '*' && text[i + 1] === '/')) {
        if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) newline(i);
        i++;
      }
      i = Math.min(n, i + 2);
    } else if (ch === '"') {
      const startLine = line;
      const startColumn = i - lineStart;
      let value = '';
      i++;
      while (i < n && text[i] !== '"') {
        // The scanner's Escape mode: \" is a quote inside the string.
        if (text[i] === '\\' && text[i + 1] === '"') {
          value += '"';
          i += 2;
          continue;
        }
        if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) newline(i);
        if (!(text[i] === '\r' && text[i + 1] === '\n')) value += text[i];
        i++;
      }
      i = Math.min(n, i + 1);
      out.push({ text: value, quoted: true, line: startLine, column: startColumn, endLine: line, endColumn: i - lineStart });
    } else if (ch === '{' || ch === '}' || ch === '|' || ch === '=') {
      out.push({ text: ch, quoted: false, line, column: i - lineStart, endLine: line, endColumn: i - lineStart + 1 });
      i++;
    } else {
      const start = i;
      while (i < n && !isSpace(text.charCodeAt(i)) && !isStop(text[i]) && !(text[i] === '/' && (text[i + 1] === '/' || text[i + 1] === '*'))) i++;
      // A lone `/` before `//` or `/*` (cannot be a token start here otherwise) is a token of its own.
      if (i === start) i++;
      out.push({ text: text.slice(start, i), quoted: false, line, column: start - lineStart, endLine: line, endColumn: i - lineStart });
    }
  }
  return out;
}

export const modeldefTokenRange = (t: ModeldefToken, u: ModeldefToken = t): Range => ({ line: t.line, column: t.column, endLine: u.endLine, endColumn: u.endColumn });

/** What each argument of a statement is: an integer (MustGetNumber), a float (MustGetFloat), or any string. */
type Arg = 'int' | 'float' | 'string';

/**
 * The statements inside `Model Actor { ... }` and their arguments, as ParseModelDefLump reads them.
 * Flags take no argument.
 */
export const KEYWORDS: Readonly<Record<string, readonly Arg[]>> = {
  path: ['string'],
  model: ['int', 'string'],
  animation: ['int', 'string'],
  scale: ['float', 'float', 'float'],
  zoffset: ['float'],
  offset: ['float', 'float', 'float'],
  angleoffset: ['float'],
  pitchoffset: ['float'],
  rolloffset: ['float'],
  'rotation-speed': ['float'],
  'rotation-vector': ['float', 'float', 'float'],
  'rotation-center': ['float', 'float', 'float'],
  skin: ['int', 'string'],
  surfaceskin: ['int', 'int', 'string'],
  frameindex: ['string', 'string', 'int', 'int'],
  frame: ['string', 'string', 'int', 'string'],
};

/** The engine whose ParseModelDefLump the text is read as: UZDoom reads a few more words. */
export type ModeldefDialect = 'gzdoom' | 'uzdoom';

/** What UZDoom's ParseModelDefLump reads besides GZDoom's statements (keywords with arguments, and words without). */
export const UZDOOM_KEYWORDS: Readonly<Record<string, readonly Arg[]>> = { viewmodelfov: ['float'] };
export const UZDOOM_FLAGS: readonly string[] = ['baseframe', 'correctpixelstretch', 'forcecullbackfaces'];

/** The keywords (with their arguments) and the flags of a dialect. */
export function modeldefWords(dialect: ModeldefDialect): { keywords: Readonly<Record<string, readonly Arg[]>>; flags: readonly string[] } {
  return dialect === 'uzdoom' ? { keywords: { ...KEYWORDS, ...UZDOOM_KEYWORDS }, flags: [...FLAGS, ...UZDOOM_FLAGS] } : { keywords: KEYWORDS, flags: FLAGS };
}

/** The flags ParseModelDefLump knows (each sets an MDL_* bit). */
export const FLAGS: readonly string[] = [
  'ignoretranslation',
  'pitchfrommomentum',
  'inheritactorpitch',
  'inheritactorroll',
  'useactorpitch',
  'useactorroll',
  'noperpixellighting',
  'scaleweaponfov',
  'modelsareattachments',
  'rotating',
  'interpolatedoubledframes',
  'nointerpolation',
  'dontcullbackfaces',
  'userotationcenter',
];

/** The words written as the engine's documentation writes them, for completion and hover. */
export const KEYWORD_SPELLING: Readonly<Record<string, string>> = {
  path: 'Path',
  model: 'Model',
  animation: 'Animation',
  scale: 'Scale',
  zoffset: 'ZOffset',
  offset: 'Offset',
  angleoffset: 'AngleOffset',
  pitchoffset: 'PitchOffset',
  rolloffset: 'RollOffset',
  'rotation-speed': 'Rotation-Speed',
  'rotation-vector': 'Rotation-Vector',
  'rotation-center': 'Rotation-Center',
  skin: 'Skin',
  surfaceskin: 'SurfaceSkin',
  frameindex: 'FrameIndex',
  frame: 'Frame',
  viewmodelfov: 'ViewModelFOV',
};

/** The highest surface index + 1 a SurfaceSkin may name (model.h MD3_MAX_SURFACES). */
export const MD3_MAX_SURFACES = 32;
/** A definition has at least this many model slots (model.h MIN_MODELS). */
export const MIN_MODELS = 4;

/** A problem of the text alone (the engine's ScriptError / ScriptMessage cases). */
export interface ModeldefProblem {
  range: Range;
  severity: 'error' | 'warning';
  code: string;
  message: string;
}

export interface ModeldefStatement {
  /** Lower-cased keyword (`frame`, `ignoretranslation`, ...), or the unknown word as written. */
  keyword: string;
  kind: 'keyword' | 'flag' | 'unknown';
  /** The keyword's token, then its arguments as read (fewer when the file ends or one is bad). */
  tokens: ModeldefToken[];
  /** Each argument's value: a number for int/float arguments, else the text. */
  values: (number | string)[];
  /** All of the arguments were read and valid. */
  complete: boolean;
}

export interface ModeldefBlock {
  /** The `Model` token and the actor class name after it. */
  keyword: ModeldefToken;
  actor?: ModeldefToken;
  close?: ModeldefToken;
  /** Model slots (model.h FSpriteModelFrame::modelsAmount): from the block's last `Model N`, at least MIN_MODELS. */
  modelsAmount: number;
  statements: ModeldefStatement[];
}

export interface ModeldefInclude {
  keyword: ModeldefToken;
  path?: ModeldefToken;
}

export interface ModeldefFile {
  blocks: ModeldefBlock[];
  includes: ModeldefInclude[];
  problems: ModeldefProblem[];
}

/** An integer as FScanner's GetNumber takes it (strtol base 0: decimal, 0x hex, 0 octal), else NaN. */
export function modeldefInteger(text: string): number {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
  if (!m) return NaN;
  const body = m[2];
  const value = /^0[xX]/.test(body) ? parseInt(body.slice(2), 16) : body.length > 1 && body[0] === '0' ? parseInt(body, 8) : parseInt(body, 10);
  return m[1] === '-' ? -value : value;
}

/** A float as GetFloat takes it (strtod, the whole token), else NaN. */
export function modeldefFloat(text: string): number {
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
}

const lower = (t: ModeldefToken | undefined): string => (t ? t.text.toLowerCase() : '');

/** Reads a MODELDEF text (as `dialect`'s engine does): its `Model` blocks and `#include`s, with the problems of the text alone. */
export function parseModeldef(text: string, dialect: ModeldefDialect = 'gzdoom'): ModeldefFile {
  const tokens = tokenizeModeldef(text);
  const file: ModeldefFile = { blocks: [], includes: [], problems: [] };
  const problem = (range: Range, severity: ModeldefProblem['severity'], code: string, message: string): void => {
    file.problems.push({ range, severity, code, message });
  };
  const endOfFile = (): Range => {
    const last = tokens[tokens.length - 1];
    return last ? { line: last.endLine, column: last.endColumn, endLine: last.endLine, endColumn: last.endColumn } : { line: 0, column: 0, endLine: 0, endColumn: 0 };
  };
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i++];
    const word = lower(t);
    if (word === '#include' && !t.quoted) {
      const path = tokens[i];
      if (path === undefined) problem(modeldefTokenRange(t), 'error', 'modeldef-syntax', '#include needs a file name: GZDoom stops with "Missing string" here.');
      else i++;
      file.includes.push({ keyword: t, path });
      continue;
    }
    if (word !== 'model' || t.quoted) {
      // The outer loop of ParseModelDefLump reads on until the next `model` or `#include`.
      problem(modeldefTokenRange(t), 'warning', 'modeldef-ignored', `${quotedName(t.text)} is outside a Model block: GZDoom skips it without a word (a Model block starts with "Model ActorClass {").`);
      continue;
    }
    const block: ModeldefBlock = { keyword: t, modelsAmount: MIN_MODELS, statements: [] };
    file.blocks.push(block);
    block.actor = tokens[i];
    if (block.actor === undefined) {
      problem(modeldefTokenRange(t), 'error', 'modeldef-syntax', 'Model needs an actor class name and a { ... } block: GZDoom stops here.');
      break;
    }
    i++;
    const open = tokens[i];
    if (open === undefined || open.text !== '{' || open.quoted) {
      problem(open ? modeldefTokenRange(open) : modeldefTokenRange(block.actor), 'error', 'modeldef-syntax', `Expected "{" after Model ${quotedName(block.actor.text)}${open ? `, found ${quotedName(open.text)}` : ''}: GZDoom stops with a script error here.`);
      // The engine reads no further; the rest of what was meant as the block is skipped (recovery only).
      while (i < tokens.length && !(tokens[i].text === '}' && !tokens[i].quoted)) i++;
      i++;
      continue;
    }
    i++;
    // First pass (as the engine's): the slots come from the block's last `Model N`.
    let amount = 0;
    for (let k = i; k < tokens.length && !(tokens[k].text === '}' && !tokens[k].quoted); k++) {
      if (lower(tokens[k]) === 'model') {
        const index = modeldefInteger(tokens[k + 1]?.text ?? '');
        if (Number.isFinite(index) && index >= 0) amount = (index + 1) & 0xff; // uint8_t modelsAmount
        k++;
      }
    }
    block.modelsAmount = Math.max(amount, MIN_MODELS);
    i = readBlock(tokens, i, block, problem, dialect);
    if (block.close === undefined) problem(endOfFile(), 'error', 'modeldef-syntax', `The block of Model ${quotedName(block.actor.text)} (line ${t.line + 1}) has no closing "}": GZDoom stops at the end of the file with a script error.`);
  }
  return file;
}

/** Reads the statements of a block from token `i` (after its `{`); returns the index after its `}`. */
function readBlock(tokens: ModeldefToken[], start: number, block: ModeldefBlock, problem: (range: Range, severity: ModeldefProblem['severity'], code: string, message: string) => void, dialect: ModeldefDialect): number {
  let i = start;
  const { keywords, flags } = modeldefWords(dialect);
  const engine = dialect === 'uzdoom' ? 'UZDoom' : 'GZDoom';
  const isStatementStart = (t: ModeldefToken | undefined): boolean => t !== undefined && !t.quoted && (t.text === '}' || Object.hasOwn(keywords, lower(t)) || flags.includes(lower(t)));
  while (i < tokens.length) {
    const t = tokens[i++];
    if (t.text === '}' && !t.quoted) {
      block.close = t;
      return i;
    }
    const word = lower(t);
    if (flags.includes(word) && !t.quoted) {
      block.statements.push({ keyword: word, kind: 'flag', tokens: [t], values: [], complete: true });
      continue;
    }
    const args = Object.hasOwn(keywords, word) ? keywords[word] : undefined;
    if (args === undefined || t.quoted) {
      block.statements.push({ keyword: t.text, kind: 'unknown', tokens: [t], values: [], complete: false });
      // A word only UZDoom reads: say so (the engine setting picks the dialect).
      const uzdoomOnly = dialect === 'gzdoom' && !t.quoted && (Object.hasOwn(UZDOOM_KEYWORDS, word) || UZDOOM_FLAGS.includes(word));
      const known = Object.keys(keywords).map((k) => KEYWORD_SPELLING[k] ?? k);
      problem(
        modeldefTokenRange(t),
        'warning',
        'modeldef-unknown-keyword',
        uzdoomOnly
          ? `${quotedName(t.text)} is UZDoom's, not GZDoom's: GZDoom prints 'Unrecognized string' and reads on${Object.hasOwn(UZDOOM_KEYWORDS, word) ? ' (its number then is an unknown word too)' : ''}. For UZDoom, set iqmTools.engine to uzdoom.`
          : `Unknown keyword ${quotedName(t.text)}: ${engine} prints 'Unrecognized string' and reads on (known: ${known.join(', ')} and the flags ${flags.join(', ')}).`,
      );
      continue;
    }
    const statement: ModeldefStatement = { keyword: word, kind: 'keyword', tokens: [t], values: [], complete: true };
    block.statements.push(statement);
    for (const kind of args) {
      const a = tokens[i];
      if (a === undefined) {
        problem(modeldefTokenRange(t), 'error', 'modeldef-syntax', `${KEYWORD_SPELLING[word]} needs ${args.length} argument${args.length === 1 ? '' : 's'} (${args.join(', ')}); the file ends first.`);
        statement.complete = false;
        break;
      }
      const value = kind === 'int' ? modeldefInteger(a.text) : kind === 'float' ? modeldefFloat(a.text) : a.text;
      if (typeof value === 'number' && Number.isNaN(value)) {
        const what = kind === 'int' ? 'an integer' : 'a number';
        problem(modeldefTokenRange(a), 'error', 'modeldef-syntax', `${KEYWORD_SPELLING[word]}: expected ${what}, found ${quotedName(a.text)}: GZDoom stops with a script error here.`);
        statement.complete = false;
        // The engine stops here. Recovery only: the rest of the line's words that start no
        // statement belong to this one (a keyword or `}` where the number goes starts the next).
        while (i < tokens.length && tokens[i].line === a.line && !isStatementStart(tokens[i])) statement.tokens.push(tokens[i++]);
        break;
      }
      if (kind === 'string' && !a.quoted && a.text === '}') {
        problem(modeldefTokenRange(a), 'error', 'modeldef-syntax', `${KEYWORD_SPELLING[word]}: expected a name, found "}".`);
        statement.complete = false;
        break;
      }
      statement.tokens.push(a);
      statement.values.push(value);
      i++;
    }
  }
  return i;
}

/** The language id the extension gives MODELDEF files (package.json). */
export const MODELDEF_LANGUAGE = 'gzdoom-modeldef';

/** A MODELDEF by its name (`modeldef.txt`, `MODELDEF.models`, `modeldef`, `modeldef_weapons.txt`): the names the extension gives the language. */
export function isModeldefName(fileName: string): boolean {
  return fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1).toLowerCase().startsWith('modeldef');
}
