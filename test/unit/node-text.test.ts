// node/text.ts: files decoded as TextDecoder decodes UTF-8 (a leading BOM dropped, invalid bytes
// U+FFFD), whether whole (decodeText) or in blocks (readTextBlocks), with ASCII blocks taken by a
// faster path: the text must be the same wherever a character, a BOM or a bad byte falls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BLOCK_BYTES, decodeText, readTextBlocks } from '../../node/text';
import { withTempDir } from '../helpers/temp-dir';

const expected = (bytes: Uint8Array): string => new TextDecoder('utf-8').decode(bytes);

function blocksOf(path: string): string {
  const pieces: string[] = [];
  readTextBlocks(path, (text) => pieces.push(text));
  return pieces.join('');
}

/** ASCII filler of `n` bytes (IQE-like lines). */
function ascii(n: number): Uint8Array {
  const line = new TextEncoder().encode('vp 0.5 1.25 -3\n');
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = line[i % line.length];
  return out;
}

function concat(...parts: (Uint8Array | number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const BOM = [0xef, 0xbb, 0xbf];
const EURO = [0xe2, 0x82, 0xac]; // U+20AC in three bytes
const cases: [string, Uint8Array][] = [
  ['empty', new Uint8Array(0)],
  ['ASCII over several blocks', ascii(3 * BLOCK_BYTES + 17)],
  ['a leading BOM', concat(BOM, ascii(2 * BLOCK_BYTES))],
  ['only a BOM', new Uint8Array(BOM)],
  ['a U+FEFF at a block start after ASCII blocks (text, not a BOM)', concat(ascii(BLOCK_BYTES), BOM, ascii(100))],
  ['a character split across blocks after ASCII', concat(ascii(BLOCK_BYTES - 1), EURO, ascii(BLOCK_BYTES))],
  ['a character split two bytes into the next block', concat(ascii(2 * BLOCK_BYTES - 2), EURO, ascii(10))],
  ['a character ending a block, then ASCII', concat(ascii(BLOCK_BYTES - 3), EURO, ascii(BLOCK_BYTES + 5))],
  ['a truncated character at a block end, then ASCII', concat(ascii(BLOCK_BYTES - 2), EURO.slice(0, 2), ascii(BLOCK_BYTES))],
  ['a truncated character at the end of the file', concat(ascii(BLOCK_BYTES + 3), EURO.slice(0, 2))],
  ['invalid bytes among ASCII', concat(ascii(1000), [0xff, 0xc0, 0x80], ascii(2 * BLOCK_BYTES))],
  ['a lone continuation byte opening a block', concat(ascii(BLOCK_BYTES), [0x80], ascii(50))],
  // decodeText's ASCII copy reads the view's own bytes, not its buffer's.
  ['ASCII in a view that starts and ends inside its buffer', concat(EURO, ascii(BLOCK_BYTES), EURO).subarray(3, 3 + BLOCK_BYTES)],
];

test('decodeText and readTextBlocks give what TextDecoder gives for the whole file', () => {
  withTempDir('iqm-text-', (dir) => {
    for (const [name, bytes] of cases) {
      const path = join(dir, 'file.iqe');
      writeFileSync(path, bytes);
      assert.equal(decodeText(bytes), expected(bytes), `decodeText: ${name}`);
      assert.equal(blocksOf(path), expected(bytes), `readTextBlocks: ${name}`);
    }
  });
});

test('readTextBlocks: random non-ASCII bytes anywhere in a file of ASCII blocks', () => {
  withTempDir('iqm-text-', (dir) => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    const path = join(dir, 'file.iqe');
    for (let round = 0; round < 40; round++) {
      const bytes = ascii(2 * BLOCK_BYTES + random(BLOCK_BYTES));
      for (let k = random(4); k >= 0; k--) {
        // Near a block boundary most of the time, where a split character must be joined.
        const at = random(3) > 0 ? (1 + random(2)) * BLOCK_BYTES - random(4) : random(bytes.length);
        const insert = [BOM, EURO, [0xc3, 0xa9], [0xf0, 0x9f, 0x98, 0x80], [0xff], [0x80]][random(6)];
        bytes.set(insert.slice(0, Math.max(0, Math.min(insert.length, bytes.length - at))), at);
      }
      writeFileSync(path, bytes);
      assert.equal(blocksOf(path), expected(bytes), `round ${round}`);
      assert.equal(decodeText(bytes), expected(bytes), `round ${round}`);
    }
  });
});
