// Tests of the IQE TextMate grammar (syntaxes/iqe.tmLanguage.json).
//  1. The assertion files test/grammar/*.iqe pass vscode-tmgrammar-test.
//  2. The harness really fails on a wrong assertion (and passes the same file with a right one).
//  3. The real IQE files in ../shared/assets/iqe produce no invalid.illegal token.
//  4. CRLF: a line ending in "\r" is tokenised like the same line without it.
// Bundled to out/test/grammar/grammar.test.js and run from the repository root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IToken } from 'vscode-textmate';
import { loadGrammar as load, repoRoot, runTool as run, tokenize } from './harness';

const grammarPath = path.join(repoRoot, 'syntaxes', 'iqe.tmLanguage.json');
const testDir = path.join(repoRoot, 'test', 'grammar');
const runTool = (files: string[]) => run([grammarPath], files);
const loadGrammar = () => load('source.iqe', grammarPath);

function assertionFiles(): string[] {
  return readdirSync(testDir)
    .filter((name) => name.endsWith('.iqe'))
    .sort()
    .map((name) => path.join(testDir, name));
}

function findIqeFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) found.push(...findIqeFiles(full));
    else if (name.toLowerCase().endsWith('.iqe')) found.push(full);
  }
  return found;
}

test('grammar assertion files pass vscode-tmgrammar-test', () => {
  const files = assertionFiles();
  assert.ok(files.length >= 10, `expected the assertion files in ${testDir}, found ${files.length}`);
  const run = runTool(files);
  assert.equal(run.status, 0, `vscode-tmgrammar-test failed:\n${run.output}`);
  for (const file of files) {
    assert.ok(run.output.includes(`${path.basename(file)} run successfuly`), `no success line for ${file}:\n${run.output}`);
  }
});

test('the grammar test harness fails on a wrong assertion', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'iqe-grammar-'));
  try {
    const source = (scope: string) =>
      ['# SYNTAX TEST "source.iqe" "harness self-check"', '# Inter-Quake Export', 'vp 1 2 3', `# <-- ${scope}`, ''].join('\n');
    const right = path.join(dir, 'right.iqe');
    const wrong = path.join(dir, 'wrong.iqe');
    writeFileSync(right, source('keyword.other.vertex.iqe'));
    writeFileSync(wrong, source('keyword.other.mesh.iqe'));

    const passing = runTool([right]);
    assert.equal(passing.status, 0, `the correct assertion should pass:\n${passing.output}`);

    const failing = runTool([wrong]);
    assert.notEqual(failing.status, null, `the tool did not exit (timeout?):\n${failing.output}`);
    assert.notEqual(failing.status, 0, `the wrong assertion should fail:\n${failing.output}`);
    assert.match(failing.output, /missing required scopes: keyword\.other\.mesh\.iqe/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('real IQE files tokenise without invalid.illegal scopes', async (t) => {
  const assets = path.join(path.resolve(repoRoot, '..', 'shared'), 'assets', 'iqe');
  if (!existsSync(assets)) {
    t.skip('../shared/assets/iqe is absent');
    return;
  }
  const files = findIqeFiles(assets);
  assert.ok(files.length > 0, `no .iqe files under ${assets}`);
  const grammar = await loadGrammar();
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').split('\n');
    const tokens = tokenize(grammar, lines);
    const problems: string[] = [];
    let numbers = 0;
    tokens.forEach((lineTokens, i) => {
      for (const token of lineTokens) {
        if (token.scopes.some((s) => s.startsWith('constant.numeric'))) numbers++;
        if (problems.length < 20 && token.scopes.some((s) => s.startsWith('invalid.illegal'))) {
          const text = lines[i].slice(token.startIndex, token.endIndex);
          problems.push(`${file}:${i + 1}:${token.startIndex + 1} ${JSON.stringify(text)} ${token.scopes.join(' ')}`);
        }
      }
    });
    assert.deepEqual(problems, [], `invalid.illegal tokens in ${file}`);
    assert.ok(tokens[0].some((tk) => tk.scopes.includes('keyword.other.header.iqe')), `${file}: no header scope on line 1`);
    assert.ok(numbers > 0, `${file}: no numbers were scoped`);
  }
});

test('CRLF: a line ending in \\r tokenises like the line without it', async () => {
  const grammar = await loadGrammar();
  for (const file of assertionFiles()) {
    const lines = readFileSync(file, 'utf8').split(/\r?\n/);
    const plain = tokenize(grammar, lines);
    const crlf = tokenize(
      grammar,
      lines.map((line) => `${line}\r`),
    );
    lines.forEach((line, i) => {
      const scopesAt = (tokens: IToken[], column: number) =>
        (tokens.find((tk) => tk.startIndex <= column && column < tk.endIndex)?.scopes ?? []).join(' ');
      for (let column = 0; column < line.length; column++) {
        assert.equal(
          scopesAt(crlf[i], column),
          scopesAt(plain[i], column),
          `${file}:${i + 1}:${column + 1} differs with a trailing \\r in ${JSON.stringify(line)}`,
        );
      }
    });
  }
});
