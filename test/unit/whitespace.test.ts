// core/whitespace.ts: the readers that scan in place split where trim() and /\s/ did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSpace } from '../../core/whitespace';

test('isSpace is /\\s/ on every UTF-16 code unit', () => {
  const differ: string[] = [];
  for (let c = 0; c < 0x10000; c++) if (isSpace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c.toString(16));
  assert.deepEqual(differ, []);
});
