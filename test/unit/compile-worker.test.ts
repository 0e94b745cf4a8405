// The editor's compile worker (dist/compileWorker.js, run by the compile command): a request with
// the document's text gives the bytes of the whole-document compile, with the bounds shared with
// dist/boundsWorker.js on a large input, and the document's errors (nothing to write) on a bad one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileDocument } from '../helpers/compile-iqm';
import { IqeDocument } from '../../core/iqe/document';
import { iqe, jointLines } from '../helpers/iqe-fixtures';
import { withTempDir } from '../helpers/temp-dir';
import { compileInWorker, NO_WORKER } from '../helpers/compile-worker';

const skip = NO_WORKER;

/** A skinned, animated grid: 151 x 151 vertices, 1,000 frames (past the bounds worker's threshold of 2e7 vertex-frames). */
function animatedGrid(): string {
  const lines = [...jointLines(3), 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1 0 0 0 -1', 'pq 0 0 1 0 0 0 -1', 'mesh grid', 'material m'];
  const n = 150;
  for (let y = 0; y <= n; y++) for (let x = 0; x <= n; x++) lines.push(`vp ${x} ${y} ${(x * y) % 5}`, `vt ${x / n} ${y / n}`, `vb ${x % 3} 0.7 ${(x + 1) % 3} 0.3`);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const i = y * (n + 1) + x;
      lines.push(`fm ${i} ${i + n + 1} ${i + 1}`, `fm ${i + 1} ${i + n + 1} ${i + n + 2}`);
    }
  }
  lines.push('animation wave', 'framerate 30', 'loop');
  for (let f = 0; f < 1000; f++) {
    const a = Math.sin(f / 20) * 0.3;
    lines.push('frame', `pq 0 0 0 0 0 ${Math.sin(a).toFixed(6)} ${(-Math.cos(a)).toFixed(6)}`, `pq 0 0 1 ${Math.sin(a / 2).toFixed(6)} 0 0 ${(-Math.cos(a / 2)).toFixed(6)}`, 'pq 0 0 1 0 0 0 -1');
  }
  return iqe(...lines);
}

test('compile worker: the bytes of the whole-document compile, bounds on two threads', { skip }, async () => {
  const text = animatedGrid();
  const options = { scale: 2, loop: true };
  const expected = compileDocument(new IqeDocument(text), options);
  assert.ok(expected.bytes);
  const reply = await compileInWorker({ source: { text }, options });
  assert.ok(reply.ok, reply.ok ? '' : reply.message);
  assert.ok(reply.bytes && Buffer.from(reply.bytes).equals(Buffer.from(expected.bytes)), 'same bytes');
  assert.deepEqual(reply.stats, expected.stats);
  assert.deepEqual(reply.notes, []);
});

test('compile worker: a document with errors gives its errors and no bytes', { skip }, async () => {
  const reply = await compileInWorker({ source: { text: iqe('vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 5') }, options: {} });
  assert.ok(reply.ok);
  assert.equal(reply.bytes, undefined);
  assert.deepEqual(reply.diagnostics.filter((d) => d.diagnostic.severity === 'error').map((d) => [d.diagnostic.code, d.diagnostic.range.line]), [['face-index-range', 4]]);
});

test('compile worker: animation files (iqmTools.compile.animationFiles) are merged after the source', { skip }, async () => {
  const mesh = iqe(...jointLines(2), 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1 0 0 0 -1', 'mesh m', 'vp 0 0 0', 'vp 1 0 0', 'vp 0 1 1', 'vb 0 1', 'vb 0 1', 'vb 1 1', 'fa 0 1 2');
  const walk = iqe(...jointLines(2), 'animation walk', 'frame', 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1 0 0 0 -1', 'frame', 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1 0.1 0 0 -0.994987');
  const expected = compileDocument(new IqeDocument(mesh + walk.slice(walk.indexOf('animation'))), { fps: 0 });
  const reply = await compileInWorker({ source: { text: mesh }, options: {}, animations: [{ text: walk }] });
  assert.ok(reply.ok && reply.bytes, reply.ok ? 'no bytes' : reply.message);
  assert.ok(Buffer.from(reply.bytes).equals(Buffer.from(expected.bytes!)), 'same bytes as one file');
  const bad = await compileInWorker({ source: { text: mesh }, options: {}, animations: [{ text: walk.replace('-0.994987', 'x') }] });
  assert.ok(bad.ok);
  assert.equal(bad.failedText, 1);
  assert.equal(bad.bytes, undefined);
});

test('compile worker: files that are not open are read from disk by the worker, with the bytes of their texts', { skip }, async () => {
  return withTempDir('iqm-worker-', async (dir) => {
    const mesh = iqe(...jointLines(2), 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1 0 0 0 -1', 'mesh m', 'vp 0 0 0', 'vp 1 0 0', 'vp 0 1 1', 'vb 0 1', 'vb 0 1', 'vb 1 1', 'fa 0 1 2');
    const walk = iqe(...jointLines(2), 'animation walk', 'frame', 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1 0 0 0 -1');
    writeFileSync(join(dir, 'mesh.iqe'), mesh);
    writeFileSync(join(dir, 'walk.iqe'), walk);
    const fromText = await compileInWorker({ source: { text: mesh }, options: { scale: 3 }, animations: [{ text: walk }] });
    const fromFiles = await compileInWorker({ source: { path: join(dir, 'mesh.iqe') }, options: { scale: 3 }, animations: [{ path: join(dir, 'walk.iqe') }] });
    assert.ok(fromText.ok && fromText.bytes && fromFiles.ok && fromFiles.bytes, JSON.stringify([fromText, fromFiles]).slice(0, 300));
    assert.ok(Buffer.from(fromFiles.bytes).equals(Buffer.from(fromText.bytes)), 'same bytes from the files as from their texts');
    // A file with errors: its diagnostics, read from the file.
    writeFileSync(join(dir, 'bad.iqe'), iqe('vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 5'));
    const bad = await compileInWorker({ source: { path: join(dir, 'bad.iqe') }, options: {} });
    assert.ok(bad.ok);
    assert.equal(bad.bytes, undefined);
    assert.deepEqual(bad.diagnostics.filter((d) => d.diagnostic.severity === 'error').map((d) => [d.diagnostic.code, d.diagnostic.range.line]), [['face-index-range', 4]]);
    // A file that went away: the worker says so.
    const gone = await compileInWorker({ source: { path: join(dir, 'gone.iqe') }, options: {} });
    assert.ok(!gone.ok);
    assert.match(gone.message, /ENOENT/);
  });
});

test('compile worker: bytes read through workspace.fs (a BOM, a character split across decoding blocks) give the bytes of their text', { skip }, async () => {
  // A name of 3-byte characters long enough that one straddles the 64 KiB decoding block boundary.
  const name = 'é€'.repeat(30_000);
  const text = iqe('mesh m', `material "${name}"`, 'vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2');
  const encoded = new TextEncoder().encode(text);
  const bytes = new Uint8Array(encoded.length + 3);
  bytes.set([0xef, 0xbb, 0xbf]);
  bytes.set(encoded, 3);
  const expected = compileDocument(new IqeDocument(text), {});
  const reply = await compileInWorker({ source: { bytes }, options: {} });
  assert.ok(reply.ok && reply.bytes, reply.ok ? 'no bytes' : reply.message);
  assert.ok(Buffer.from(reply.bytes).equals(Buffer.from(expected.bytes!)), 'same bytes as from the text');
  // A file with errors: its diagnostics, at the lines of the decoded text.
  const bad = await compileInWorker({ source: { bytes: new TextEncoder().encode(iqe('vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 5')) }, options: {} });
  assert.ok(bad.ok);
  assert.equal(bad.bytes, undefined);
  assert.deepEqual(bad.diagnostics.map((d) => d.diagnostic).filter((d) => d.severity === 'error').map((d) => [d.code, d.range.line]), [['face-index-range', 4]]);
});

test('compile worker: the preview asks for the source map, and gets it transferred beside the same bytes', { skip }, async () => {
  const text = iqe(...jointLines(2), 'pq 0 0 0 0 0 0 1', 'pq 0 0 1 0 0 0 1', 'mesh m', 'vp 0 0 0', 'vb 0 1', 'vp 1 0 0', 'vb 1 1', 'vp 0 1 0', 'vb 1 1', 'fa 0 1 2');
  const plain = await compileInWorker({ source: { text }, options: {} });
  const reply = await compileInWorker({ source: { text }, options: { sourceMap: true } });
  assert.ok(reply.ok && plain.ok);
  assert.equal(plain.sourceMap, undefined);
  assert.ok(reply.bytes && plain.bytes && Buffer.from(reply.bytes).equals(Buffer.from(plain.bytes)));
  assert.deepEqual(Array.from(reply.sourceMap?.triangleLines ?? []), [12]);
  assert.deepEqual(Array.from(reply.sourceMap?.jointLines ?? []), [1, 2]);
  assert.deepEqual(Array.from(reply.sourceMap?.sourceVertexLines ?? []), [6, 8, 10]);
});

test('compile worker kept warm: one worker answers compile after compile (an error between), each reply that of a fresh worker', { skip }, async () => {
  const { Worker } = await import('node:worker_threads');
  const { WORKER } = await import('../helpers/compile-worker');
  const good = animatedGrid();
  const small = iqe(...jointLines(2), 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1 0 0 0 -1', 'mesh m', 'vp 0 0 0', 'vp 1 0 0', 'vp 0 1 1', 'vb 0 1', 'vb 0 1', 'vb 1 1', 'fa 0 1 2');
  const broken = iqe('vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 5');
  const requests = [{ source: { text: small }, options: {} }, { source: { text: broken }, options: {} }, { source: { text: good }, options: { scale: 2, loop: true } }, { source: { text: small }, options: {} }];
  const fresh = await Promise.all(requests.map((r) => compileInWorker(r)));
  const worker = new Worker(WORKER);
  try {
    for (let i = 0; i < requests.length; i++) {
      const reply = await new Promise<typeof fresh[number]>((done, fail) => {
        worker.once('message', done);
        worker.once('error', fail);
        worker.postMessage(requests[i]);
      });
      const expected = fresh[i];
      assert.ok(reply.ok && expected.ok, `request ${i}: ${reply.ok ? '' : reply.message}`);
      assert.deepEqual(reply.bytes && Buffer.from(reply.bytes), expected.bytes && Buffer.from(expected.bytes), `request ${i}: the same bytes`);
      assert.deepEqual(reply.diagnostics, expected.diagnostics, `request ${i}: the same diagnostics`);
    }
  } finally {
    await worker.terminate();
  }
});
