// The import rules of DESIGN.md ("Imports go down the layers only: no cycles, and no folder imports
// from one that builds on it"), checked over the source: every `import ... from`, `export ... from`,
// side-effect `import '...'` and `import('...')` of core/, client/, server/, media/, cli/ and node/
// (type-only imports count: they tie the files together as much as value imports do).
//
// Imports that break a rule today and belong to work in progress elsewhere are listed in ALLOWED,
// each with what removes it. The list is exact: an entry whose import is gone, or no longer breaks
// a rule, fails the test too, so it shrinks as that work lands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { REPO, sourceFiles } from '../helpers/source-tree';

const SCANNED = ['core', 'client', 'server', 'media', 'cli', 'node'];

/**
 * core's layers, lowest first. A unit is a folder of core/ or one of the root files named here;
 * every other file directly in core/ is `root` (bounds-checked reading, UTF-8, paths, pages, ...:
 * the utilities everything stands on). A unit imports only from units of LOWER layers: two units
 * of one layer do not know each other. From what the code does:
 * - math (vec3, quat, 3x4 matrices) and image (TGA) need only the utilities;
 * - model is the neutral Model every reader produces, with pose sampling over math;
 * - iqm, md3, dpm read binary models into it (iqm also holds the one IQM layout description); md2
 *   reads only an MD2's frame names (the MODELDEF check's);
 * - iqe parses, validates and writes IQE text; its writer names IQM vertex array types and
 *   formats, so it sits above iqm;
 * - compile turns IQE (and the neutral source model) into IQM bytes, over iqe and iqm's layout;
 * - md5, smd, obj, gltf are the other compile sources: each produces what compile consumes;
 * - formats is the registry every entry point opens models and compile sources through: it
 *   knows every reader and the compile, and reads their companion files over the injected file
 *   access;
 * - sidecar parses .skin, .shader, .framegroups and animation.cfg;
 * - lookup resolves names beside a model the way an engine does (textures, shader scripts, skins,
 *   player parts, which files pair with a sidecar, the one clip order) over the parsed sidecars,
 *   reading models through formats;
 * - engines are the engine profiles, and check models and player sets (found by lookup) against them;
 * - validate checks a binary model's bytes (every problem, with codes), opening it through formats;
 *   its messages and its document cite what the engines' loaders do, from their profiles;
 * - sidecarCheck gives a sidecar file's diagnostics: its text against the model and the textures
 *   the lookup finds;
 * - compare diffs two opened models;
 * - viewLink (two linked previews) names compare's differences; protocol (host <-> webview
 *   messages) names things from every layer, and viewState and lspMethods are the vocabulary of
 *   the faces: nothing in core builds on them but
 * - host, what every host of the preview and the compile does over its injected file access (the
 *   VS Code panel, the compile workers, `iqm-tools view`): the model read, the texture answers,
 *   the engine findings, the "mesh from" offer, a source's compile and a comparison's result.
 */
const CORE_LAYERS: readonly (readonly string[])[] = [
  ['root'],
  ['math', 'image'],
  ['model'],
  ['iqm', 'md3', 'dpm', 'md2'],
  ['iqe'],
  ['compile'],
  ['md5', 'smd', 'obj', 'gltf'],
  ['formats'],
  ['sidecar'],
  ['lookup'],
  ['engines'],
  ['validate'],
  ['sidecarCheck'],
  ['compare'],
  ['viewLink.ts'],
  ['protocol.ts', 'viewState.ts', 'lspMethods.ts'],
  ['host'],
];

/**
 * The top-level folders and what each may import besides itself. core is pure (and loads its
 * WebAssembly from wasm/); node/ is the Node-only code under the CLI and the desktop host; client/
 * (the extension host), server/ (the language server) and media/ (the webview) are the faces and
 * know nothing of each other; cli/ is the command line over core and node/. Within client/ and
 * server/, only the host entries client/node and server/node reach node/ or Node's built-ins, and
 * the shared code imports neither host's entry (checked in `hostSplit`).
 */
const TOP_LEVEL: Readonly<Record<string, readonly string[]>> = {
  core: ['wasm'],
  node: ['core'],
  server: ['core'],
  media: ['core'],
  client: ['core', 'node'],
  cli: ['core', 'node'],
};

/** Packages each top-level folder may import (a name or a name followed by /...). `node:` built-ins are `node:`. */
const PACKAGES: Readonly<Record<string, readonly string[]>> = {
  // core: the glTF library (pure; core/gltf), the LSP protocol's message types (core/lspMethods).
  core: ['@gltf-transform/core', 'vscode-languageserver-protocol'],
  node: ['node:'],
  server: ['vscode-languageserver', 'node:'],
  media: ['@vscode/codicons'],
  client: ['vscode', 'vscode-languageclient', 'node:'],
  cli: ['node:'],
};

/** Which core file may import a package core allows (the rest of core imports none of them). */
const CORE_PACKAGE_USERS: Readonly<Record<string, readonly string[]>> = {
  '@gltf-transform/core': ['core/gltf/'],
  'vscode-languageserver-protocol': ['core/lspMethods.ts'],
};

interface Allowed {
  from: string;
  to: string;
  /** What removes it (issue 30's work elsewhere). */
  why: string;
}


/** Imports that break a rule today: each must exist and break a rule (exact, see above). */
const ALLOWED: readonly Allowed[] = [];

// ---------------------------------------------------------------------------------------------
// The scanner.

const KEYWORDS_BEFORE_EXPRESSION = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'void', 'yield', 'await', 'throw', 'new', 'delete']);

/** The text with comments blanked (strings, template literals and regular expressions kept). */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  // Whether a `/` here starts a regular expression (after an operator or at the start) or divides.
  let regexAllowed = true;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\') j++;
        else if (c !== '`' && text[j] === '\n') break;
        j++;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
      regexAllowed = false;
      continue;
    }
    if (c === '/' && regexAllowed) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j++;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
      regexAllowed = false;
      continue;
    }
    if (/[\w$]/.test(c)) {
      let j = i;
      while (j < text.length && /[\w$]/.test(text[j])) j++;
      const word = text.slice(i, j);
      out += word;
      i = j;
      regexAllowed = KEYWORDS_BEFORE_EXPRESSION.has(word);
      continue;
    }
    if (!/\s/.test(c)) regexAllowed = /[(,=:[!&|?{};+\-*%<>~^]/.test(c);
    out += c;
    i++;
  }
  return out;
}

const STATIC = /(?<![\w$.])(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+)\s*from\s*(['"])([^'"\n]+)\1/g;
const BARE = /(?<![\w$.])import\s*(['"])([^'"\n]+)\1/g;
const DYNAMIC = /(?<![\w$.])import\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g;

/** The module specifiers a file imports, in order of appearance. */
function importsOf(text: string): string[] {
  const code = withoutComments(text);
  const found: [number, string][] = [];
  for (const re of [STATIC, BARE, DYNAMIC]) for (const m of code.matchAll(re)) found.push([m.index, m[2]]);
  return found.sort((a, b) => a[0] - b[0]).map(([, spec]) => spec);
}

/**
 * A relative specifier as the repository path of the file it names, as the bundler resolves it
 * (`…/wasm/NAME.wasm` is the AssemblyScript source wasm/NAME.ts: scripts/assemblyscript-plugin.mjs).
 */
function resolve(from: string, spec: string): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  if (/^wasm\/[\w-]+\.wasm$/.test(base)) return existsSync(join(REPO, base.replace(/\.wasm$/, '.ts'))) ? base.replace(/\.wasm$/, '.ts') : undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.mts`, `${base}/index.ts`]) {
    const full = join(REPO, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return undefined;
}

interface Graph {
  files: string[];
  /** file -> the repository files it imports. */
  edges: Map<string, Set<string>>;
  /** file -> the packages it imports. */
  packages: Map<string, Set<string>>;
  unresolved: string[];
}

function scan(): Graph {
  const files = SCANNED.flatMap(sourceFiles);
  const edges = new Map<string, Set<string>>();
  const packages = new Map<string, Set<string>>();
  const unresolved: string[] = [];
  for (const file of files) {
    const to = new Set<string>();
    const pkgs = new Set<string>();
    for (const spec of importsOf(readFileSync(join(REPO, file), 'utf8'))) {
      if (!spec.startsWith('.')) {
        pkgs.add(spec);
        continue;
      }
      const target = resolve(file, spec);
      if (target) to.add(target);
      else unresolved.push(`${file}: '${spec}'`);
    }
    edges.set(file, to);
    packages.set(file, pkgs);
  }
  return { files, edges, packages, unresolved };
}

// ---------------------------------------------------------------------------------------------
// The rules.

const top = (file: string): string => file.split('/')[0];

/** The unit of a core file (see CORE_LAYERS). */
function coreUnit(file: string): string {
  const parts = file.split('/');
  if (parts.length > 2) return parts[1];
  return CORE_LAYERS.some((layer) => layer.includes(parts[1])) ? parts[1] : 'root';
}

function layerOf(unit: string): number {
  return CORE_LAYERS.findIndex((layer) => layer.includes(unit));
}

/** What is wrong with one import (undefined when nothing). */
function violation(from: string, to: string): string | undefined {
  const a = top(from);
  const b = top(to);
  if (a !== b) {
    if (!TOP_LEVEL[a]?.includes(b)) return `${a}/ imports from ${b}/`;
    return hostSplit(from, to);
  }
  if (a === 'core') {
    const ua = coreUnit(from);
    const ub = coreUnit(to);
    if (ua === ub) return undefined;
    const la = layerOf(ua);
    const lb = layerOf(ub);
    if (la < 0 || lb < 0) return `core unit ${la < 0 ? ua : ub} has no layer in CORE_LAYERS`;
    if (lb >= la) return `core/${ua} (layer ${la}) imports from core/${ub} (layer ${lb}), which is not below it`;
    return undefined;
  }
  return hostSplit(from, to);
}

/** client/ and server/: the shared code runs in both hosts; only each host's entry folder is host-specific. */
function hostSplit(from: string, to: string): string | undefined {
  const host = (file: string): string | undefined => /^(?:client|server)\/(node|browser)\//.exec(file)?.[1];
  const face = top(from);
  if (face !== 'client' && face !== 'server') return undefined;
  const fromHost = host(from);
  if (top(to) === 'node' && fromHost !== 'node') return `${from} runs in the browser too but imports node/`;
  if (top(to) === face) {
    const toHost = host(to);
    if (toHost && toHost !== fromHost) return `${from} imports ${toHost} host's entry code`;
  }
  return undefined;
}

function packageViolation(file: string, spec: string): string | undefined {
  const face = top(file);
  const allowed = PACKAGES[face] ?? [];
  const name = allowed.find((p) => (p.endsWith(':') ? spec.startsWith(p) : spec === p || spec.startsWith(`${p}/`)));
  if (!name) return `${file} imports the package '${spec}', which ${face}/ does not use`;
  if (name === 'node:' && (face === 'client' || face === 'server') && !file.startsWith(`${face}/node/`)) {
    return `${file} runs in the browser too but imports '${spec}'`;
  }
  const users = face === 'core' ? CORE_PACKAGE_USERS[name] : undefined;
  if (users && !users.some((u) => file.startsWith(u))) return `${file} imports '${spec}' (only ${users.join(', ')} may)`;
  return undefined;
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

function without(edges: Map<string, Set<string>>, allowed: readonly Allowed[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [from, to] of edges) out.set(from, new Set([...to].filter((t) => !allowed.some((a) => a.from === from && a.to === t))));
  return out;
}

const graph = scan();
const isAllowed = (from: string, to: string): boolean => ALLOWED.some((a) => a.from === from && a.to === to);

test('the scanner reads every kind of import and skips comments and strings', () => {
  const text = [
    "import { a, type B } from './a';",
    "import type { C } from '../c';",
    "import D, { e } from './d';",
    "import * as f from './f';",
    "export { g } from './g';",
    "export * from './h';",
    "export type { I } from './i';",
    "import './side';",
    "import {",
    '  j,',
    '  k,',
    "} from './jk';",
    "const l = await import('./l');",
    "type M = typeof import('./m');",
    "// import { n } from './comment';",
    "/* export * from './block'; */",
    "const r = /from '\\.\\/regex'/;",
  ].join('\n');
  assert.deepEqual(importsOf(text), ['./a', '../c', './d', './f', './g', './h', './i', './side', './jk', './l', './m']);
});

test('every relative import names a file', () => {
  assert.ok(graph.files.length > 100, `only ${graph.files.length} files scanned`);
  assert.deepEqual(graph.unresolved, []);
});

test('no import cycles between files (besides the allowed imports)', () => {
  const left = cycles(without(graph.edges, ALLOWED));
  assert.deepEqual(left, [], `import cycles:\n${left.map((c) => `  ${c.join(' <-> ')}`).join('\n')}`);
});

test('imports go down the layers: core by CORE_LAYERS, the top-level folders by TOP_LEVEL', () => {
  const found: string[] = [];
  for (const [from, to] of graph.edges) {
    for (const target of to) {
      const why = violation(from, target);
      if (why && !isAllowed(from, target)) found.push(`${from} -> ${target}: ${why}`);
    }
  }
  assert.deepEqual(found, []);
});

test('packages: each folder imports only the packages it may (core: pure ones only)', () => {
  const found: string[] = [];
  for (const [file, specs] of graph.packages) {
    for (const spec of specs) {
      const why = packageViolation(file, spec);
      if (why) found.push(why);
    }
  }
  assert.deepEqual(found, []);
});

test('every core folder and named core file has a layer', () => {
  const units = new Set(graph.files.filter((f) => top(f) === 'core').map(coreUnit));
  const missing = [...units].filter((u) => layerOf(u) < 0);
  assert.deepEqual(missing, [], 'add them to CORE_LAYERS');
});

test('the allowed imports are exact: each exists and still breaks a rule', () => {
  const component = new Map<string, number>();
  cycles(graph.edges).forEach((files, i) => files.forEach((f) => component.set(f, i)));
  const stale: string[] = [];
  for (const a of ALLOWED) {
    if (!graph.edges.get(a.from)?.has(a.to)) stale.push(`${a.from} -> ${a.to}: no longer imported (remove it from ALLOWED)`);
    else if (!violation(a.from, a.to) && !(component.has(a.from) && component.get(a.from) === component.get(a.to))) {
      stale.push(`${a.from} -> ${a.to}: breaks no rule any more (remove it from ALLOWED)`);
    }
  }
  assert.deepEqual(stale, []);
  const keys = ALLOWED.map((a) => `${a.from} -> ${a.to}`);
  assert.equal(new Set(keys).size, keys.length, 'an import is listed twice');
});
