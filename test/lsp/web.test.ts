// The browser build of the language server (dist/web/server.js, what the web worker extension host
// of vscode.dev runs) over LSP, in a worker thread made to look like a Web Worker
// (helpers/server.ts `web`): the same diagnostics and features as the Node server, and large files
// whose text it asks of the client (iqmTools/readFile), since a worker cannot read files.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Hover } from 'vscode-languageserver-protocol';
import { CloseLargeFileNotification, ValidateLargeFileNotification, type ReadFileParams, type ReadFileResult } from '../../core/lspMethods';
import { bigIqe, codes, MINIMAL_IQE, problemCodes, range, single, TestServer } from './helpers/server';

/** What the test client serves through iqmTools/readFile, by URI: a text, a size that is too large, or a failure. */
const files = new Map<string, { text: string; stamp: string } | { size: number } | { error: string }>();
const asked: ReadFileParams[] = [];

async function serve(params: ReadFileParams): Promise<ReadFileResult> {
  asked.push(params);
  const file = files.get(params.uri);
  if (!file) throw new Error(`EntryNotFound (FileSystemError): ${params.uri}`);
  if ('error' in file) throw new Error(file.error);
  if ('size' in file) return { stamp: `${file.size}:1`, size: file.size };
  const size = file.text.length;
  return file.stamp === params.unlessStamp || size > params.maxBytes ? { stamp: file.stamp, size } : { stamp: file.stamp, size, text: file.text };
}

describe('lsp: the browser build of the server', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start({ web: true, files: serve });
  });
  after(async () => {
    await server?.stop();
  });

  it('publishes the diagnostics of an open document and answers hovers', async () => {
    const uri = 'vscode-vfs://github/owner/repo/broken.iqe';
    await server.open(uri, `${MINIMAL_IQE}fa 0 1 7\n`, 1);
    const published = await server.waitForVersion(uri, 1);
    assert.deepEqual(single(published.diagnostics, 'face-index-range').range, range(7, 7, 8));
    const hover = await server.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 7, character: 3 } });
    assert.match(JSON.stringify(hover?.contents), /vertex/i);
    // Validated in slices with turns of the event loop between them: no setImmediate in a worker.
    const big = 'vscode-vfs://github/owner/repo/big.iqe';
    await server.open(big, `${bigIqe(4 * 1024 * 1024)}foo\n`, 1);
    const bigPublished = await server.waitForVersion(big, 1, 60_000);
    assert.deepEqual(problemCodes(bigPublished.diagnostics), ['unknown-command']);
  });

  it('gets a large file\'s text from the client, again only when its stamp changed, and clears on close', async () => {
    const uri = 'vscode-vfs://github/owner/repo/large.iqe';
    files.set(uri, { text: `${MINIMAL_IQE}Mesh "typo"\n`, stamp: '1:1' });
    await server.connection.sendNotification(ValidateLargeFileNotification, { uri });
    const first = await server.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0);
    assert.equal(single(first.diagnostics, 'unknown-command').range.start.line, 7);
    const request = asked.find((p) => p.uri === uri);
    assert.ok(request, 'the server did not ask the client for the file');
    assert.equal(request.unlessStamp, undefined);
    assert.ok(request.maxBytes >= 64 * 1024 * 1024, `maxBytes ${request.maxBytes}`);

    // The client's file watcher reports a change: the server asks again with the stamp it has.
    let since = server.mark();
    files.set(uri, { text: MINIMAL_IQE, stamp: '2:2' });
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
    const fixed = await server.waitForDiagnostics(uri, () => true, { since });
    assert.deepEqual(problemCodes(fixed.diagnostics), []);
    assert.equal(asked.filter((p) => p.uri === uri).at(-1)?.unlessStamp, '1:1');

    since = server.mark();
    await server.connection.sendNotification(CloseLargeFileNotification, { uri });
    const cleared = await server.waitForDiagnostics(uri, () => true, { since });
    assert.deepEqual(cleared.diagnostics, []);
  });

  it('a file the client cannot read, and one too large to validate, each get one clear diagnostic', async () => {
    const missing = 'vscode-vfs://github/owner/repo/missing.iqe';
    await server.connection.sendNotification(ValidateLargeFileNotification.method, { uri: missing });
    const read = await server.waitForDiagnostics(missing);
    assert.deepEqual(codes(read.diagnostics), ['read-error']);
    assert.match(read.diagnostics[0].message, /EntryNotFound/);

    const huge = 'vscode-vfs://github/owner/repo/huge.iqe';
    files.set(huge, { size: 300 * 1024 * 1024 });
    await server.connection.sendNotification(ValidateLargeFileNotification.method, { uri: huge });
    const tooLarge = await server.waitForDiagnostics(huge);
    assert.deepEqual(codes(tooLarge.diagnostics), ['file-too-large']);
    assert.match(tooLarge.diagnostics[0].message, /300 MB/);
  });
});
