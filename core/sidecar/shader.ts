// Quake 3 shader scripts (FORMAT-PITFALLS §8.5): `name { ... { map path ... } ... }`. We keep the
// first stage's image (skipping $lightmap and $whiteimage), two-sidedness (cull disable/none/
// twosided) and alpha testing (alphaFunc).

export interface ShaderInfo {
  name: string;
  /** The first stage's image (map / clampMap / first animMap frame), or undefined. */
  image?: string;
  twoSided: boolean;
  alphaTest?: string;
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
    let line: string[] = [];
    const flush = () => {
      if (!line.length) return;
      const key = line[0].toLowerCase();
      if (depth === 1 && key === 'cull' && /^(disable|none|twosided)$/i.test(line[1] ?? '')) shader.twoSided = true;
      if (depth === 2 && shader.image === undefined) {
        if ((key === 'map' || key === 'clampmap') && line[1] && !/^\$(lightmap|whiteimage)$/i.test(line[1])) shader.image = line[1];
        if (key === 'animmap' && line[2]) shader.image = line[2];
      }
      if (depth === 2 && key === 'alphafunc' && shader.alphaTest === undefined) shader.alphaTest = line[1];
      line = [];
    };
    while (i < tokens.length && depth > 0) {
      const t = tokens[i++];
      if (t === '\n') flush();
      else if (t === '{') {
        flush();
        depth++;
      } else if (t === '}') {
        flush();
        depth--;
      } else line.push(t);
    }
    flush();
    shaders.push(shader);
  }
  return shaders;
}
