// What the grammar tests share: running vscode-tmgrammar-test on assertion files, and tokenising
// text with the same vscode-textmate and vscode-oniguruma that tool uses.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IGrammar, IToken } from 'vscode-textmate';

export const repoRoot = process.cwd();
const toolPackage = path.join(repoRoot, 'node_modules', 'vscode-tmgrammar-test', 'package.json');
const TOOL_TIMEOUT_MS = 120_000;

/** The unit-test entry of vscode-tmgrammar-test, from its package.json "bin". */
function toolEntry(): string {
  const pkg = JSON.parse(readFileSync(toolPackage, 'utf8')) as { bin: Record<string, string> };
  const bin = pkg.bin['vscode-tmgrammar-test'];
  assert.ok(bin, 'vscode-tmgrammar-test has no "vscode-tmgrammar-test" bin entry');
  return path.join(path.dirname(toolPackage), bin);
}

export interface ToolRun {
  status: number | null;
  output: string;
}

/** vscode-tmgrammar-test with these grammars on these assertion files. */
export function runTool(grammars: readonly string[], files: string[]): ToolRun {
  const result = spawnSync(process.execPath, [toolEntry(), ...grammars.flatMap((g) => ['-g', g]), ...files], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: TOOL_TIMEOUT_MS,
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? `\n${String(result.error)}` : ''}`;
  return { status: result.status, output };
}

// vscode-textmate and vscode-oniguruma are dependencies of vscode-tmgrammar-test: resolve them the
// way that package does, so the tokeniser is the one the assertion files are checked with.
const loadFromTool = createRequire(toolPackage);
const textmate = loadFromTool('vscode-textmate') as typeof import('vscode-textmate');
const oniguruma = loadFromTool('vscode-oniguruma') as typeof import('vscode-oniguruma');

let wasmLoaded: Promise<void> | undefined;
const grammars = new Map<string, Promise<IGrammar>>();

/** The grammar of `scopeName` from the file at `grammarPath`. */
export function loadGrammar(scopeName: string, grammarPath: string): Promise<IGrammar> {
  let grammar = grammars.get(scopeName);
  if (!grammar) {
    grammar = (async () => {
      wasmLoaded ??= (async () => {
        const wasm = readFileSync(path.join(path.dirname(loadFromTool.resolve('vscode-oniguruma')), 'onig.wasm'));
        await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
      })();
      await wasmLoaded;
      const registry = new textmate.Registry({
        onigLib: Promise.resolve({
          createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
          createOnigString: (s: string) => new oniguruma.OnigString(s),
        }),
        loadGrammar: async (scope: string) => (scope === scopeName ? textmate.parseRawGrammar(readFileSync(grammarPath, 'utf8'), grammarPath) : null),
      });
      const loaded = await registry.loadGrammar(scopeName);
      assert.ok(loaded, `${scopeName} did not load`);
      return loaded;
    })();
    grammars.set(scopeName, grammar);
  }
  return grammar;
}

/** Tokenises a document line by line, as the editor does. */
export function tokenize(grammar: IGrammar, lines: string[]): IToken[][] {
  let state = textmate.INITIAL;
  return lines.map((line) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    return result.tokens;
  });
}
