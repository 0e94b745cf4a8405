// Any bytes never crash or hang the server: binary data, NUL, invalid UTF-8, lone surrogates,
// megabytes of garbage; and a malformed message is survivable too. After each, the server still
// answers requests and still validates.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { codes, MINIMAL_IQE, range, single, TestServer } from './helpers/server';
import { DebugMemoryRequest, ValidateLargeFileNotification, type DebugMemoryResult } from '../../core/lspMethods';

/** Deterministic pseudo-random bytes (xorshift32). */
function randomBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** Garbage text: random code units including NUL, control characters, CR/LF runs and lone surrogates. */
function garbageText(length: number, seed: number): string {
  const bytes = randomBytes(length * 2, seed);
  const units = new Uint16Array(length);
  for (let i = 0; i < length; i++) {
    const r = bytes[2 * i] | (bytes[2 * i + 1] << 8);
    const kind = r & 7;
    if (kind === 0) units[i] = 0; // NUL
    else if (kind === 1) units[i] = 0xd800 + (r >>> 6); // surrogates, usually unpaired
    else if (kind === 2) units[i] = r & 1 ? 10 : 13;
    else if (kind === 3) units[i] = r >>> 3; // anything in the BMP
    else units[i] = 32 + ((r >>> 3) % 95); // printable ASCII: commands, numbers, quotes
  }
  let text = '';
  for (let i = 0; i < length; i += 8192) text += String.fromCharCode(...units.subarray(i, i + 8192));
  return text;
}

async function assertStillServing(server: TestServer, tag: string): Promise<void> {
  assert.ok(server.alive, `server died (${tag})\n${server.logs.join('\n')}`);
  const memory = await server.request<DebugMemoryResult>(DebugMemoryRequest.method, undefined, 30_000);
  assert.ok(memory.heapUsed > 0);
  const uri = `file:///test/probe-${tag}.iqe`;
  await server.open(uri, MINIMAL_IQE.replace('fa 0 1 2', 'fa 0 1 3'), 1);
  const probe = await server.waitForVersion(uri, 1, 30_000);
  assert.deepEqual(single(probe.diagnostics, 'face-index-range').range, range(6, 7, 8));
}

describe('lsp: garbage in, diagnostics out, server alive', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'iqe-lsp-garbage-'));
    server = await TestServer.start({ diagnostics: { debounceMs: 0, maxProblems: 200 } });
  });
  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('random text with NUL, controls and lone surrogates (small pieces, then 3 MB)', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const uri = `file:///test/garbage-${seed}.iqe`;
      await server.open(uri, garbageText(200 + seed * 97, seed), 1);
      const published = await server.waitForVersion(uri, 1, 30_000);
      assert.ok(published.diagnostics.length <= 201);
      assert.ok(!codes(published.diagnostics).includes('internal-error'), server.logs.join('\n'));
    }
    const uri = 'file:///test/garbage-big.iqe';
    await server.open(uri, garbageText(3 * 1024 * 1024, 99), 1);
    const published = await server.waitForVersion(uri, 1, 60_000);
    assert.equal(published.diagnostics.length, 201, 'capped at maxProblems plus one entry');
    assert.ok(!codes(published.diagnostics).includes('internal-error'), server.logs.join('\n'));
    // Edits into garbage: replace random spans.
    for (let version = 2; version <= 6; version++) {
      await server.change(uri, version, [{ range: { start: { line: version * 7, character: 1 }, end: { line: version * 11, character: 3 } }, text: garbageText(300, version) }]);
    }
    const edited = await server.waitForVersion(uri, 6, 60_000);
    assert.ok(!codes(edited.diagnostics).includes('internal-error'), server.logs.join('\n'));
    await assertStillServing(server, 'text');
  });

  it('a raw message carrying invalid UTF-8 and NUL bytes inside the document text', async () => {
    const uri = 'file:///test/invalid-utf8.iqe';
    const garbage = randomBytes(64 * 1024, 7);
    // Keep the JSON string well-formed: no quote, backslash or control bytes below 0x20 except NUL,
    // which JSON forbids unescaped; so escape NUL and control bytes, and pass every byte >= 0x80 raw.
    const pieces: Buffer[] = [];
    for (const byte of garbage) {
      if (byte === 0x22 || byte === 0x5c || byte < 0x20) pieces.push(Buffer.from(`\\u${byte.toString(16).padStart(4, '0')}`));
      else pieces.push(Buffer.from([byte]));
    }
    const prefix = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'iqe', version: 1, text: '@@' } } }).replace('"@@"', '"'));
    const body = Buffer.concat([prefix, ...pieces, Buffer.from('"}}}')]);
    server.process!.stdin!.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
    const published = await server.waitForVersion(uri, 1, 30_000);
    assert.ok(!codes(published.diagnostics).includes('internal-error'), server.logs.join('\n'));
    await assertStillServing(server, 'utf8');
  });

  it('random bytes on disk (large-file path): 100 MB of binary', async () => {
    const path = join(dir, 'garbage.iqe');
    writeFileSync(path, randomBytes(100 * 1024 * 1024, 12345));
    const uri = pathToFileURL(path).href;
    await server.connection.sendNotification(ValidateLargeFileNotification, { uri });
    const published = await server.waitForDiagnostics(uri, () => true, { timeoutMs: 60_000 });
    assert.ok(published.diagnostics.length >= 1 && published.diagnostics.length <= 201);
    assert.ok(!codes(published.diagnostics).includes('internal-error'), server.logs.join('\n'));
    await assertStillServing(server, 'disk');
  });

  it('one 20 MB line (no line breaks at all), on disk and as an open document', async () => {
    const path = join(dir, 'one-line.iqe');
    const line = `vp ${'1.5 '.repeat(5 * 1024 * 1024)}`;
    writeFileSync(path, `# Inter-Quake Export\n${line}`);
    const uri = pathToFileURL(path).href;
    await server.connection.sendNotification(ValidateLargeFileNotification, { uri });
    const fromDisk = await server.waitForDiagnostics(uri, () => true, { timeoutMs: 60_000 });
    assert.ok(!codes(fromDisk.diagnostics).includes('internal-error'), server.logs.join('\n'));
    const openUri = 'file:///test/one-line-open.iqe';
    await server.open(openUri, line, 1);
    const opened = await server.waitForVersion(openUri, 1, 60_000);
    assert.ok(!codes(opened.diagnostics).includes('internal-error'), server.logs.join('\n'));
    await assertStillServing(server, 'one-line');
  });

  it('a malformed notification and an unknown request do not take it down', async () => {
    await server.connection.sendNotification('textDocument/didChange', { textDocument: { uri: 'file:///test/never-opened.iqe', version: 3 }, contentChanges: [{ text: 'x' }] });
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: 'file:///test/odd.iqe', languageId: 'iqe', version: 1, text: '' } });
    await assert.rejects(server.request('iqmTools/noSuchRequest', {}));
    await assertStillServing(server, 'malformed');
  });
});

describe('lsp: an unexpected exception in validation', () => {
  it('becomes one internal-error diagnostic and a logged error, and the server carries on', async () => {
    const marker = '@@IQE-FAULT@@';
    const server = await TestServer.start({ env: { IQM_TOOLS_LSP_FAULT: marker } });
    try {
      const uri = 'file:///test/fault.iqe';
      await server.open(uri, `${MINIMAL_IQE}# ${marker}\n`, 1);
      const failed = await server.waitForVersion(uri, 1);
      assert.deepEqual(codes(failed.diagnostics), ['internal-error']);
      assert.equal(failed.diagnostics[0].source, 'iqe');
      assert.ok(server.logs.some((line) => line.includes('injected fault')), 'the error is logged');

      // Remove the marker: normal diagnostics again.
      const lastLine = MINIMAL_IQE.split('\n').length - 1;
      await server.change(uri, 2, [{ range: { start: { line: lastLine, character: 0 }, end: { line: lastLine + 1, character: 0 } }, text: '' }]);
      const recovered = await server.waitForVersion(uri, 2);
      assert.deepEqual(recovered.diagnostics, []);
      await assertStillServing(server, 'fault');
    } finally {
      await server.stop();
    }
  });

  it('an edit the parse cache throws on is applied by rebuilding the document from its text', async () => {
    const marker = '@@EDIT-FAULT@@';
    const server = await TestServer.start({ env: { IQM_TOOLS_LSP_EDIT_FAULT: marker } });
    try {
      const uri = 'file:///test/edit-fault.iqe';
      await server.open(uri, MINIMAL_IQE, 1);
      await server.waitForVersion(uri, 1);
      // Two changes in one didChange; the first one "fails" inside the parse cache.
      await server.change(uri, 2, [
        { range: range(1, 0, 0), text: `foo ${marker}\n` },
        { range: range(7, 7, 8), text: '7' },
      ]);
      const rebuilt = await server.waitForVersion(uri, 2);
      assert.equal(rebuilt.diagnostics.find((d) => d.code === 'unknown-command')?.range.start.line, 1);
      assert.deepEqual(rebuilt.diagnostics.find((d) => d.code === 'face-index-range')?.range, range(7, 7, 8));
      assert.ok(server.logs.some((line) => line.includes('injected edit fault')), 'the error is logged');
      // And later edits work on the rebuilt document.
      await server.change(uri, 3, [{ range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, text: '' }, { range: range(6, 7, 8), text: '2' }]);
      const later = await server.waitForVersion(uri, 3);
      assert.deepEqual(later.diagnostics, []);
    } finally {
      await server.stop();
    }
  });
});
