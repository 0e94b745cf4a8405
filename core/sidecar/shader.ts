// Quake 3 shader scripts (FORMAT-PITFALLS §8.5): `name { ... { map path ... } ... }`. We keep the
// first stage's image (skipping $lightmap and $whiteimage), that stage's blending (blendFunc),
// two-sidedness (cull disable/none/twosided) and alpha testing (alphaFunc).

export interface ShaderInfo {
  name: string;
  /** The first stage's image (map / clampMap / first animMap frame), or undefined. */
  image?: string;
  twoSided: boolean;
  alphaTest?: string;
  /** How the image stage is blended over what is behind it (blendFunc); absent: opaque. */
  blend?: ShaderBlend;
  /** Where the name is written (0-based line, UTF-16 columns). */
  at?: TextSpan;
  /** Every image a stage names (map, clampMap, each animMap frame), $lightmap and the like left out. */
  images?: ShaderImage[];
}

export interface TextSpan {
  line: number;
  start: number;
  end: number;
}

export interface ShaderImage extends TextSpan {
  /** The stage keyword as written: map, clampMap, animMap. */
  keyword: string;
  path: string;
}

/** Built-in images that are no files. */
const BUILTIN_IMAGE = /^(\$(lightmap|whiteimage|fromblack)|\*white)$/i;

/** additive (GL_ONE GL_ONE), alpha blending (GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA), filter (GL_DST_COLOR GL_ZERO). */
export type ShaderBlend = 'add' | 'blend' | 'filter';

/** A blendFunc line's arguments as one of the blends the preview draws, or undefined (opaque or unknown). */
export function blendOf(args: string[]): ShaderBlend | undefined {
  const a = args.map((x) => x.toUpperCase());
  if (a.length === 1) return a[0] === 'ADD' ? 'add' : a[0] === 'BLEND' ? 'blend' : a[0] === 'FILTER' ? 'filter' : undefined;
  const [src, dst] = a;
  if (dst === 'GL_ONE' && (src === 'GL_ONE' || src === 'GL_SRC_ALPHA')) return 'add';
  if (src === 'GL_SRC_ALPHA' && dst === 'GL_ONE_MINUS_SRC_ALPHA') return 'blend';
  if ((src === 'GL_DST_COLOR' && dst === 'GL_ZERO') || (src === 'GL_ZERO' && dst === 'GL_SRC_COLOR')) return 'filter';
  return undefined;
}

interface ShaderToken extends TextSpan {
  text: string;
}

/** Words, braces and line ends ('\n' tokens), with positions; comments and quotes removed. */
function tokenize(text: string): ShaderToken[] {
  const out: ShaderToken[] = [];
  let i = 0;
  let line = 0;
  let lineStart = 0;
  const push = (t: string, from: number, to: number) => out.push({ text: t, line, start: from - lineStart, end: to - lineStart });
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; i < stop; i++) {
        if (text[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
      }
    } else if (c === '{' || c === '}') {
      push(c, i, i + 1);
      i++;
    } else if (c === '\n') {
      push('\n', i, i);
      i++;
      line++;
      lineStart = i;
    } else if (/\s/.test(c)) i++;
    else if (c === '"') {
      const close = text.indexOf('"', i + 1);
      const lineEnd = text.indexOf('\n', i + 1);
      const end = close < 0 || (lineEnd >= 0 && lineEnd < close) ? (lineEnd < 0 ? text.length : lineEnd) : close;
      push(text.slice(i + 1, end), i + 1, end);
      i = end === close ? end + 1 : end;
    } else {
      let j = i;
      while (j < text.length && !/[\s{}]/.test(text[j]) && !(text[j] === '/' && text[j + 1] === '/')) j++;
      push(text.slice(i, j), i, j);
      i = j;
    }
  }
  return out;
}

/** Parses every shader in a script; unbalanced braces end the parse with what was read. */
export function parseShaders(text: string): ShaderInfo[] {
  const tokens = tokenize(text);
  const shaders: ShaderInfo[] = [];
  let i = 0;
  const skipNewlines = () => {
    while (tokens[i]?.text === '\n') i++;
  };
  while (i < tokens.length) {
    skipNewlines();
    if (i >= tokens.length) break;
    const nameToken = tokens[i++];
    const name = nameToken.text;
    if (name === '{' || name === '}') continue;
    skipNewlines();
    if (tokens[i]?.text !== '{') continue;
    i++;
    const images: ShaderImage[] = [];
    const shader: ShaderInfo = { name, twoSided: false, at: { line: nameToken.line, start: nameToken.start, end: nameToken.end }, images };
    let depth = 1;
    let stage = 0;
    let imageStage = -1;
    let stageBlend: ShaderBlend | undefined;
    let lineTokens: ShaderToken[] = [];
    const flush = () => {
      if (!lineTokens.length) return;
      const line = lineTokens.map((t) => t.text);
      const key = line[0].toLowerCase();
      if (depth === 2 && (key === 'map' || key === 'clampmap' || key === 'animmap')) {
        // animMap <frequency> <image> ...: every word after the frequency is a frame.
        for (const t of lineTokens.slice(key === 'animmap' ? 2 : 1, key === 'animmap' ? undefined : 2)) {
          if (!BUILTIN_IMAGE.test(t.text)) images.push({ keyword: line[0], path: t.text, line: t.line, start: t.start, end: t.end });
        }
      }
      if (depth === 1 && key === 'cull' && /^(disable|none|twosided)$/i.test(line[1] ?? '')) shader.twoSided = true;
      if (depth === 2 && shader.image === undefined) {
        if ((key === 'map' || key === 'clampmap') && line[1] && !/^\$(lightmap|whiteimage)$/i.test(line[1])) shader.image = line[1];
        if (key === 'animmap' && line[2]) shader.image = line[2];
        if (shader.image !== undefined) imageStage = stage;
      }
      if (depth === 2 && key === 'blendfunc') stageBlend = blendOf(line.slice(1));
      if (depth === 2 && key === 'alphafunc' && shader.alphaTest === undefined) shader.alphaTest = line[1];
      lineTokens = [];
    };
    while (i < tokens.length && depth > 0) {
      const token = tokens[i++];
      const t = token.text;
      if (t === '\n') flush();
      else if (t === '{') {
        flush();
        depth++;
        if (depth === 2) {
          stage++;
          stageBlend = undefined;
        }
      } else if (t === '}') {
        flush();
        // The image stage's blendFunc (it may come before or after its map line).
        if (depth === 2 && stage === imageStage && stageBlend) shader.blend = stageBlend;
        depth--;
      } else lineTokens.push(token);
    }
    flush();
    shaders.push(shader);
  }
  return shaders;
}
