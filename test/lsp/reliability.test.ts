// Issue 17 through the real server: the outline of a 20,000-joint chain is answered (it was never
// answered past about 2,500: the nested reply overflowed the stack), and a file with a long line of
// bad blend pairs gets its diagnostics and answers folding and hover (each problem re-parsed the
// line: seconds of blocked requests).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DocumentSymbol, FoldingRange, Hover } from 'vscode-languageserver-protocol';
import { TestServer } from './helpers/server';

describe('lsp: reliability (issue 17)', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(async () => {
    await server?.stop();
  });

  it('answers documentSymbol for a chain of 20,000 joints, each the parent of the next', async () => {
    const uri = 'file:///test/chain.iqe';
    const lines = ['# Inter-Quake Export'];
    for (let i = 0; i < 20_000; i++) lines.push(`joint j${i} ${i - 1}`);
    await server.open(uri, lines.join('\n') + '\n', 1);
    await server.waitForVersion(uri, 1, 60_000);
    const symbols = await server.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } }, 60_000);
    let count = 0;
    const walk = (list: DocumentSymbol[] | undefined): void => {
      for (const s of list ?? []) {
        count++;
        walk(s.children);
      }
    };
    walk(symbols[0].children);
    assert.equal(count, 20_000);
    assert.ok(server.alive);
    assert.ok(!server.logs.some((l) => /Sending response failed/.test(l)), server.logs.join('\n'));
  });

  it('validates a line of 20,000 bad blend pairs and answers folding and hover', async () => {
    const uri = 'file:///test/long-line.iqe';
    const pairs = Array.from({ length: 20_000 }, (_, i) => `${300 + i} 0.5`).join(' ');
    const text = ['# Inter-Quake Export', 'joint a -1', 'pq 0 0 0 0 0 0 1', 'mesh m', 'vp 0 0 0', `vb ${pairs}`, 'vp 1 0 0', 'vb 0 1', 'vp 0 1 0', 'vb 0 1', 'fa 0 1 2', ''].join('\n');
    await server.open(uri, text, 1);
    const published = await server.waitForVersion(uri, 1, 60_000);
    assert.ok(published.diagnostics.some((d) => d.code === 'blend-joint-range'));
    const folding = await server.request<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri } }, 60_000);
    assert.ok(Array.isArray(folding));
    const hover = await server.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 5, character: 0 } }, 60_000);
    assert.ok(hover);
  });
});
