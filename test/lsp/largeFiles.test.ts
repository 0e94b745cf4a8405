// Files VS Code does not sync (over 50 MB): the client names them with iqmTools/validateLargeFile
// and the server reads them from disk, re-reads them when they change, and clears on close.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { bigIqe, codes, MINIMAL_IQE, problemCodes, range, single, TestServer } from './helpers/server';
import { CloseLargeFileNotification, ValidateLargeFileNotification } from '../../core/lspMethods';

describe('lsp: large files read from disk', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'iqe-lsp-large-'));
    server = await TestServer.start();
  });
  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gets diagnostics, follows changes on disk, and clears on close', async () => {
    const path = join(dir, 'big.iqe');
    const text = bigIqe(8 * 1024 * 1024);
    // One bad face index in the last line.
    const bad = `${text}fa 0 1 99999999\n`;
    writeFileSync(path, bad);
    const uri = pathToFileURL(path).href;
    const lastLine = bad.split('\n').length - 2;

    await server.connection.sendNotification(ValidateLargeFileNotification, { uri });
    const first = await server.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0, { timeoutMs: 30_000 });
    assert.deepEqual(single(first.diagnostics, 'face-index-range').range, range(lastLine, 7, 15));
    assert.equal(first.version, undefined);

    // Fixed on disk (written to a temporary file and renamed over it, as editors do).
    let since = server.mark();
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
    const fixed = await server.waitForDiagnostics(uri, () => true, { since, timeoutMs: 30_000 });
    assert.deepEqual(problemCodes(fixed.diagnostics), []);

    // Broken again, written in place; a didChangeWatchedFiles from the client works too.
    since = server.mark();
    writeFileSync(path, `${text}foo\n`);
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
    const again = await server.waitForDiagnostics(uri, () => true, { since, timeoutMs: 30_000 });
    single(again.diagnostics, 'unknown-command');

    since = server.mark();
    await server.connection.sendNotification(CloseLargeFileNotification, { uri });
    const cleared = await server.waitForDiagnostics(uri, () => true, { since });
    assert.deepEqual(cleared.diagnostics, []);

    // No longer tracked: a change on disk publishes nothing more.
    writeFileSync(path, bad);
    const marker = 'file:///test/after-close.iqe';
    await server.open(marker, MINIMAL_IQE, 1);
    await server.waitForVersion(marker, 1);
    await new Promise((resolve) => setTimeout(resolve, 300)); // longer than the reload delay, to give a stray reload its chance
    assert.equal(server.published.slice(since).filter((p) => p.uri === uri).length, 1);
  });

  it('a document opened by the client takes over from the file on disk', async () => {
    const path = join(dir, 'taken-over.iqe');
    writeFileSync(path, `${MINIMAL_IQE}foo\n`);
    const uri = pathToFileURL(path).href;
    await server.connection.sendNotification(ValidateLargeFileNotification, { uri });
    await server.waitForDiagnostics(uri, (p) => problemCodes(p.diagnostics).length === 1);
    await server.open(uri, MINIMAL_IQE, 1);
    const synced = await server.waitForVersion(uri, 1);
    assert.deepEqual(problemCodes(synced.diagnostics), []);
  });

  it('a missing file and a non-file URI each get one clear diagnostic', async () => {
    const missing = pathToFileURL(join(dir, 'missing.iqe')).href;
    await server.connection.sendNotification(ValidateLargeFileNotification.method, { uri: missing });
    const read = await server.waitForDiagnostics(missing);
    assert.deepEqual(codes(read.diagnostics), ['read-error']);

    const remote = 'vscode-remote://ssh-remote+host/models/big.iqe';
    await server.connection.sendNotification(ValidateLargeFileNotification.method, { uri: remote });
    const unsupported = await server.waitForDiagnostics(remote);
    assert.equal(unsupported.diagnostics.length, 1);
    assert.match(unsupported.diagnostics[0].message, /file: URI/);
    // And a malformed notification does no harm.
    await server.connection.sendNotification(ValidateLargeFileNotification.method, { uri: 42 });
    await server.connection.sendNotification(CloseLargeFileNotification.method, null);
    assert.ok(await server.request('iqmTools/debugMemory'));
  });
});
