// The language features beyond diagnostics, through the real server over LSP: outline, folding,
// hover, go to definition, references, completion and quick fixes, on an edited document.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CodeAction, CompletionItem, DocumentSymbol, FoldingRange, Hover, Location } from 'vscode-languageserver-protocol';
import { range, TestServer } from './helpers/server';

const TEXT = [
  '# Inter-Quake Export', //  0
  'joint "root" -1', //       1
  'joint "arm" 0', //         2
  'pq 0 0 0 0 0 0 -1', //     3
  'pq 0 0 1 0 0 0 -1', //     4
  'mesh "body"', //           5
  'vp 0 0 0', //              6
  'vp 1 0 0', //              7
  'vp 0 1 0', //              8
  'fm 0 1 2', //              9
  'animation "wave"', //      10
  'frame', //                 11
  'pq 0 0 0 0 0 0 -1', //     12
  'pq 0 0 1 0 0 0 -1', //     13
  '',
].join('\n');

describe('lsp: language features', () => {
  let server: TestServer;
  const uri = 'file:///test/features.iqe';
  const doc = { textDocument: { uri } };
  before(async () => {
    server = await TestServer.start();
    await server.open(uri, TEXT, 1);
    await server.waitForVersion(uri, 1);
  });
  after(async () => {
    await server?.stop();
  });

  it('advertises the features', async () => {
    const symbols = await server.request<DocumentSymbol[]>('textDocument/documentSymbol', doc);
    assert.deepEqual(symbols.map((s) => s.name), ['skeleton', 'body', 'wave']);
    assert.equal(symbols[0].children?.[0].children?.[0].name, 'arm');
  });

  it('folding ranges cover the mesh and the animation', async () => {
    const folds = await server.request<FoldingRange[]>('textDocument/foldingRange', doc);
    assert.ok(folds.some((f) => f.startLine === 5 && f.endLine === 9), JSON.stringify(folds));
    assert.ok(folds.some((f) => f.startLine === 10 && f.endLine === 14), JSON.stringify(folds));
  });

  it('hover and definition follow an edit that inserts a vertex before the face', async () => {
    // Insert a vertex at line 6: the mesh's vertices move down one line; fm 0 now names it.
    await server.change(uri, 2, [{ range: range(6, 0, 0), text: 'vp 5 5 5\n' }]);
    await server.waitForVersion(uri, 2);
    const h = await server.request<Hover>('textDocument/hover', { ...doc, position: { line: 10, character: 3 } });
    assert.match(JSON.stringify(h.contents), /Vertex \*\*0\*\*, line 7/);
    assert.match(JSON.stringify(h.contents), /vp 5 5 5/);
    const defs = await server.request<Location[]>('textDocument/definition', { ...doc, position: { line: 10, character: 5 } });
    assert.deepEqual(defs.map((d) => d.range.start.line), [7]);
  });

  it('references of a joint: its child and nothing else', async () => {
    const refs = await server.request<Location[]>('textDocument/references', { ...doc, position: { line: 1, character: 8 }, context: { includeDeclaration: false } });
    assert.deepEqual(refs.map((r) => r.range.start.line), [2]);
  });

  it('completion offers vertexarray formats after a type', async () => {
    await server.change(uri, 3, [{ range: range(0, 20, 20), text: '\nvertexarray blendindexes ' }]);
    await server.waitForVersion(uri, 3);
    const items = await server.request<CompletionItem[]>('textDocument/completion', { ...doc, position: { line: 1, character: 25 } });
    assert.ok(items.some((i) => i.label === 'ushort'), JSON.stringify(items.map((i) => i.label)));
  });

  it('a quick fix for a wrong-case command', async () => {
    await server.change(uri, 4, [{ range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, text: 'VP 1 2 3\n' }]);
    const published = await server.waitForVersion(uri, 4);
    const unknown = published.diagnostics.filter((d) => d.code === 'unknown-command');
    assert.equal(unknown.length, 1);
    const actions = await server.request<CodeAction[]>('textDocument/codeAction', { ...doc, range: unknown[0].range, context: { diagnostics: unknown } });
    assert.deepEqual(actions.map((a) => a.edit?.changes?.[uri]?.[0].newText), ['vp']);
  });

  it('a request for a document that is not open answers empty, not an error', async () => {
    const symbols = await server.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: 'file:///not/open.iqe' } });
    assert.deepEqual(symbols, []);
  });
});
