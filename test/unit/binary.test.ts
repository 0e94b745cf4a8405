// core/binary.ts decodeUtf8: the text TextDecoder gives for well-formed UTF-8, whichever path
// (short ASCII, long ASCII through the platform's decoder, the loop for other characters) it takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeUtf8 } from '../../core/binary';

test('decodeUtf8: ASCII of every length and text with other characters, whole and in part', () => {
  const texts = [
    '',
    'joint_root',
    'a'.repeat(256),
    'b'.repeat(257),
    JSON.stringify({ asset: { version: '2.0' }, nodes: Array.from({ length: 3000 }, (_, i) => ({ name: `node${i}`, children: [i + 1] })) }),
    'Grüße, ≠ and 😀 in a name',
    `${'x'.repeat(5000)}é${'y'.repeat(5000)}`,
  ];
  for (const text of texts) {
    const bytes = new TextEncoder().encode(`##${text}##`);
    assert.equal(decodeUtf8(bytes, 2, bytes.length - 2), text, `${text.slice(0, 40)} (${text.length} characters)`);
  }
});
