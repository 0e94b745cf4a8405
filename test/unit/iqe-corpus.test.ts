// Real exports (../shared/assets/iqe, recursively): the reference compiler accepts them all, so
// none may get a diagnostic of severity error. Also: parsing them incrementally and in slices
// gives the same diagnostics as one pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { IqeDocument, validateIqe } from '../../core/iqe/document';
import { describe } from '../helpers/iqe-fixtures';

const ROOT = resolve(process.cwd(), '..', 'shared', 'assets', 'iqe');

function findIqe(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findIqe(path));
    else if (name.toLowerCase().endsWith('.iqe')) found.push(path);
  }
  return found;
}

test('shared IQE assets: no diagnostic of severity error', (t) => {
  if (!existsSync(ROOT)) {
    t.skip(`${ROOT}: ../shared is absent`);
    return;
  }
  const files = findIqe(ROOT);
  assert.ok(files.length > 0, `no .iqe under ${ROOT}`);
  const failures: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const errors = validateIqe(text, { maxProblems: 100000 }).filter((d) => d.severity === 'error');
    if (errors.length > 0) failures.push(`${relative(ROOT, file)}:\n${describe(errors.slice(0, 20))}`);
  }
  assert.deepEqual(failures, [], failures.join('\n'));
});

test('shared IQE assets: parsing in slices gives the same diagnostics', (t) => {
  if (!existsSync(ROOT)) {
    t.skip(`${ROOT}: ../shared is absent`);
    return;
  }
  for (const file of findIqe(ROOT)) {
    const text = readFileSync(file, 'utf8');
    const doc = new IqeDocument(text);
    while (!doc.parseSome(10000)) {
      /* slices */
    }
    assert.deepEqual(doc.diagnostics(), validateIqe(text), relative(ROOT, file));
  }
});
