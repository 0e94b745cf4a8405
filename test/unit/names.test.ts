// One meaning per exported name: a function, class, interface, type or constant exported from
// core/, client/, server/, media/, cli/, node/ or the test helpers is declared in one file only,
// so that an import of a name means one thing wherever it is read (issue 30: `writeIqm` was the
// compiler's writer in one file and the tests' in another, `baseName` kept the extension in one
// and dropped it in another).
//
// The names still declared twice, in files other work is changing, are listed in TWICE with the
// new name suggested; the list is exact (a name that is no longer declared in exactly those files
// fails the test too), so it shrinks as they are renamed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, sourceFiles } from '../helpers/source-tree';

const SCANNED = ['core', 'client', 'server', 'media', 'cli', 'node', 'test/helpers', 'test/lsp/helpers'];

interface Twice {
  name: string;
  files: readonly string[];
  why: string;
}

/** Names declared in more than one file: every file that declares it, and why it may. */
const TWICE: readonly Twice[] = [
  // The two hosts' entries: VS Code calls `activate` by name in each.
  { name: 'activate', files: ['client/browser/extension.ts', 'client/node/extension.ts'], why: 'the entry point of each extension host (VS Code names it)' },
];

const DECLARATION = /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|interface|type|const|let|var|enum)\s+([A-Za-z_$][\w$]*)/gm;

/** Exported name -> the files that declare it, sorted. */
function declarations(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of SCANNED.flatMap(sourceFiles)) {
    for (const m of readFileSync(join(REPO, file), 'utf8').matchAll(DECLARATION)) {
      const files = found.get(m[1]) ?? [];
      if (!files.includes(file)) files.push(file);
      found.set(m[1], files);
    }
  }
  for (const files of found.values()) files.sort();
  return found;
}

const declared = declarations();

test('every exported name is declared in one file (besides TWICE)', () => {
  const twice = [...declared].filter(([name, files]) => files.length > 1 && !TWICE.some((t) => t.name === name));
  assert.deepEqual(twice.map(([name, files]) => `${name}: ${files.join(', ')}`), []);
});

test('TWICE is exact: each name is still declared in exactly its files', () => {
  assert.ok(declared.size > 500, `only ${declared.size} names found`);
  const stale = TWICE.filter((t) => (declared.get(t.name) ?? []).join() !== [...t.files].sort().join());
  assert.deepEqual(stale.map((t) => `${t.name}: now in ${(declared.get(t.name) ?? []).join(', ') || 'no file'} (update or remove it)`), []);
});
