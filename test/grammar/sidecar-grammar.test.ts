// Tests of the sidecar grammars (syntaxes/framegroups, animation-cfg, skin, q3-shader, modeldef):
//  1. The assertion files test/grammar/sidecar/* pass vscode-tmgrammar-test (and a wrong assertion fails).
//  2. The real sidecar files of ../shared/assets tokenise without invalid.illegal scopes, with their
//     numbers, surface names and texture paths scoped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadGrammar, repoRoot, runTool, tokenize } from './harness';

const GRAMMARS: Record<string, { scope: string; file: string }> = {
  framegroups: { scope: 'source.framegroups', file: 'framegroups.tmLanguage.json' },
  cfg: { scope: 'source.q3-animation-cfg', file: 'animation-cfg.tmLanguage.json' },
  skin: { scope: 'source.q3-skin', file: 'skin.tmLanguage.json' },
  shader: { scope: 'source.q3-shader', file: 'q3-shader.tmLanguage.json' },
  modeldef: { scope: 'source.modeldef', file: 'modeldef.tmLanguage.json' },
};
const grammarPaths = Object.values(GRAMMARS).map((g) => path.join(repoRoot, 'syntaxes', g.file));
const testDir = path.join(repoRoot, 'test', 'grammar', 'sidecar');

test('sidecar grammar assertion files pass vscode-tmgrammar-test', () => {
  const files = readdirSync(testDir).sort().map((n) => path.join(testDir, n));
  assert.equal(files.length, 5, `one assertion file per grammar in ${testDir}`);
  const run = runTool(grammarPaths, files);
  assert.equal(run.status, 0, `vscode-tmgrammar-test failed:\n${run.output}`);
  for (const file of files) assert.ok(run.output.includes(`${path.basename(file)} run successfuly`), `no success line for ${file}:\n${run.output}`);
});

test('a wrong sidecar grammar assertion fails', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sidecar-grammar-'));
  try {
    const wrong = path.join(dir, 'wrong.skin');
    writeFileSync(wrong, '// SYNTAX TEST "source.q3-skin" "self-check"\nsurface,path/to/texture\n// <- entity.name.tag.q3-skin\n');
    const failing = runTool(grammarPaths, [wrong]);
    assert.notEqual(failing.status, 0, `the wrong assertion should fail:\n${failing.output}`);
    assert.match(failing.output, /missing required scopes: entity\.name\.tag\.q3-skin/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Real sidecar files, the grammar for each, and scopes that must appear in them. */
const REAL: [string, keyof typeof GRAMMARS, string[]][] = [
  ['dpm/nexuiz/grunt.dpm.framegroups', 'framegroups', ['constant.numeric.integer.first-frame.framegroups', 'constant.numeric.fps.framegroups', 'comment.line.double-slash.framegroups']],
  ['dpm/nexuiz/h_chainsaw.dpm.framegroups', 'framegroups', ['comment.block.framegroups', 'entity.name.function.clip.framegroups']],
  ['md3/oa_soldier/animation.cfg', 'cfg', ['keyword.other.sex.q3-animation-cfg', 'keyword.other.headoffset.q3-animation-cfg', 'constant.numeric.fps.q3-animation-cfg']],
  ['dpm/nexuiz/grunt.dpm_0.skin', 'skin', ['entity.name.type.surface.q3-skin', 'string.unquoted.path.texture.q3-skin']],
  ['md3/oa_soldier/head.md3_0.skin', 'skin', ['entity.name.tag.q3-skin', 'string.unquoted.path.texture.q3-skin']],
  ['md3/oa_soldier/upper.md3_0.skin', 'skin', ['entity.name.tag.q3-skin', 'entity.name.type.surface.q3-skin']],
  ['md3/oa_soldier/lower.md3_0.skin', 'skin', ['entity.name.tag.q3-skin', 'entity.name.type.surface.q3-skin']],
  ['md3/chainsaw/g_chainsaw.md3_0.skin', 'skin', ['string.unquoted.path.texture.q3-skin']],
  ['md3/kubalwagon/kt_kubalwagon.shader', 'shader', ['entity.name.function.shader.q3-shader', 'string.unquoted.path.texture.q3-shader', 'keyword.other.stage.q3-shader', 'comment.line.double-slash.q3-shader']],
];

test('real sidecar files tokenise without invalid.illegal scopes', async (t) => {
  const assets = path.join(repoRoot, '..', 'shared', 'assets');
  if (!existsSync(assets)) {
    t.skip('../shared/assets is absent');
    return;
  }
  for (const [rel, kind, expected] of REAL) {
    const g = GRAMMARS[kind];
    const grammar = await loadGrammar(g.scope, path.join(repoRoot, 'syntaxes', g.file));
    const lines = readFileSync(path.join(assets, rel), 'latin1').split(/\r?\n/);
    const seen = new Set<string>();
    const problems: string[] = [];
    tokenize(grammar, lines).forEach((tokens, i) => {
      for (const token of tokens) {
        for (const s of token.scopes) seen.add(s);
        if (token.scopes.some((s) => s.startsWith('invalid'))) problems.push(`${rel}:${i + 1}:${token.startIndex + 1} ${JSON.stringify(lines[i].slice(token.startIndex, token.endIndex))} ${token.scopes.join(' ')}`);
      }
    });
    assert.deepEqual(problems, [], `invalid tokens in ${rel}`);
    for (const scope of expected) assert.ok(seen.has(scope), `${rel}: no ${scope}`);
  }
});
