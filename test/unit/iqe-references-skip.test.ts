// References of a vertex skip the chunks whose faces cannot name it (navigation.ts faceRange, kept
// per chunk across edits): the lines found must be those of reading every face line, whatever the
// document (fa and fm faces, negative indices, several meshes, a comment section) and after edits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cmd } from '../../core/iqe/commands';
import { CHUNK_CHARS } from '../../core/iqe/chunk';
import { IqeDocument } from '../../core/iqe/document';
import { facesUsingVertex, type ParsedLines } from '../../core/iqe/navigation';
import { prng, randomInt } from '../helpers/iqe-fixtures';

/** Every face line whose values resolve to `index` (§3.2), read line by line: what the skip must not change. */
function everyFaceUsing(doc: ParsedLines, index: number): number[] {
  const out: number[] = [];
  let comment = -1;
  let verticesSoFar = 0;
  let meshBase = 0;
  for (const chunk of doc.parsedChunks) {
    for (let i = 0; i < chunk.lineCount; i++) {
      const k = chunk.kind[i];
      if (comment >= 0) return out;
      if (k === Cmd.Comment) comment = chunk.firstLine + i;
      else if (k === Cmd.Vp) verticesSoFar++;
      else if (k === Cmd.Mesh) meshBase = verticesSoFar;
      else if (k === Cmd.Fa || k === Cmd.Fm) {
        for (let v = chunk.valueStart[i]; v < chunk.valueStart[i + 1]; v++) {
          const raw = chunk.values[v];
          const resolved = raw < 0 ? Math.max(verticesSoFar + raw, 0) : k === Cmd.Fm ? meshBase + raw : raw;
          if (resolved === index) {
            out.push(chunk.firstLine + i);
            break;
          }
        }
      }
    }
  }
  return out;
}

/** The document and the vertices most worth asking about (each mesh's last ones: what its negative indices name). */
function document(random: () => number, withComment: boolean): { text: string; ends: number[] } {
  const lines = ['# Inter-Quake Export'];
  const ends: number[] = [];
  let vertices = 0;
  for (let m = 0; m < 20; m++) {
    // A comment section in the middle: no face after it counts.
    if (withComment && m === 10) lines.push('comment');
    lines.push(`mesh m${m}`);
    const start = vertices;
    const n = 600 + randomInt(random, 400);
    for (let v = 0; v < n; v++) lines.push(`vp ${v} ${m} 0`);
    vertices += n;
    for (let back = 1; back <= 5; back++) ends.push(vertices - back);
    for (let f = 0; f + 2 < n; f++) {
      const r = random();
      if (r < 0.9) lines.push(`fm ${f} ${f + 1} ${f + 2}`);
      else if (r < 0.95) lines.push(`fa ${start + f} ${randomInt(random, vertices)} ${start + f + 2}`);
      else lines.push(`fm -1 -2 -${1 + randomInt(random, 5)}`);
    }
  }
  return { text: `${lines.join('\n')}\n`, ends };
}

test('references of a vertex: the same lines as reading every face, on documents of fa, fm and negative faces and after edits', () => {
  for (const [seed, withComment] of [[31, false], [32, true]] as const) {
    const random = prng(seed);
    const { text, ends } = document(random, withComment);
    assert.ok(text.length > 8 * CHUNK_CHARS);
    const doc = new IqeDocument(text);
    const vertexCount = (text.match(/^vp /gm) ?? []).length;
    for (let round = 0; round < 6; round++) {
      for (let q = 0; q < 40 + ends.length; q++) {
        const index = q < 40 ? randomInt(random, vertexCount) : ends[q - 40];
        assert.deepEqual(facesUsingVertex(doc, index, 1e9), everyFaceUsing(doc, index), `seed ${seed}, round ${round}, vertex ${index}`);
      }
      // An edit: a face typed into a random line's start (the chunk's kept range must not be used after).
      const line = 1 + randomInt(random, doc.lineCount - 2);
      doc.edit(line, 0, line, 0, `fa ${randomInt(random, vertexCount)} ${randomInt(random, vertexCount)} 0\n`);
    }
  }
});
