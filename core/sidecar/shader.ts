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
}

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

function tokenize(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === '{' || c === '}') {
      out.push(c);
      i++;
    } else if (c === '\n') {
      out.push('\n');
      i++;
    } else if (/\s/.test(c)) i++;
    else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      out.push(text.slice(i + 1, end < 0 ? text.length : end));
      i = end < 0 ? text.length : end + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s{}]/.test(text[j]) && !(text[j] === '/' && text[j + 1] === '/')) j++;
      out.push(text.slice(i, j));
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
    while (tokens[i] === '\n') i++;
  };
  while (i < tokens.length) {
    skipNewlines();
    if (i >= tokens.length) break;
    const name = tokens[i++];
    if (name === '{' || name === '}') continue;
    skipNewlines();
    if (tokens[i] !== '{') continue;
    i++;
    const shader: ShaderInfo = { name, twoSided: false };
    let depth = 1;
    let stage = 0;
    let imageStage = -1;
    let stageBlend: ShaderBlend | undefined;
    let line: string[] = [];
    const flush = () => {
      if (!line.length) return;
      const key = line[0].toLowerCase();
      if (depth === 1 && key === 'cull' && /^(disable|none|twosided)$/i.test(line[1] ?? '')) shader.twoSided = true;
      if (depth === 2 && shader.image === undefined) {
        if ((key === 'map' || key === 'clampmap') && line[1] && !/^\$(lightmap|whiteimage)$/i.test(line[1])) shader.image = line[1];
        if (key === 'animmap' && line[2]) shader.image = line[2];
        if (shader.image !== undefined) imageStage = stage;
      }
      if (depth === 2 && key === 'blendfunc') stageBlend = blendOf(line.slice(1));
      if (depth === 2 && key === 'alphafunc' && shader.alphaTest === undefined) shader.alphaTest = line[1];
      line = [];
    };
    while (i < tokens.length && depth > 0) {
      const t = tokens[i++];
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
      } else line.push(t);
    }
    flush();
    shaders.push(shader);
  }
  return shaders;
}
