// Live diagnostics over LSP: open, incremental edits that introduce and fix errors, close.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { codes, MINIMAL_IQE, range, single, TestServer } from './helpers/server';

describe('lsp: diagnostics as you type', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(async () => {
    await server?.stop();
  });

  it('a valid document gets an empty list for its version', async () => {
    const uri = 'file:///test/valid.iqe';
    await server.open(uri, MINIMAL_IQE, 1);
    const published = await server.waitForVersion(uri, 1);
    assert.deepEqual(published.diagnostics, []);
  });

  it('an edit that breaks a face index and an edit that fixes it', async () => {
    const uri = 'file:///test/edit.iqe';
    await server.open(uri, MINIMAL_IQE, 1);
    await server.waitForVersion(uri, 1);

    // "fa 0 1 2" -> "fa 0 1 7": replace the character at line 6, column 7.
    await server.change(uri, 2, [{ range: range(6, 7, 8), text: '7' }]);
    const broken = await server.waitForVersion(uri, 2);
    const diagnostic = single(broken.diagnostics, 'face-index-range');
    assert.deepEqual(diagnostic.range, range(6, 7, 8));
    assert.equal(diagnostic.severity, DiagnosticSeverity.Error);
    assert.equal(diagnostic.source, 'iqe');
    for (const related of diagnostic.relatedInformation ?? []) assert.equal(related.location.uri, uri);

    await server.change(uri, 3, [{ range: range(6, 7, 8), text: '2' }]);
    const fixed = await server.waitForVersion(uri, 3);
    assert.deepEqual(fixed.diagnostics, []);
  });

  it('inserting and deleting whole lines keeps later ranges right', async () => {
    const uri = 'file:///test/lines.iqe';
    await server.open(uri, MINIMAL_IQE, 1);
    await server.waitForVersion(uri, 1);

    // Insert an unknown command after the header: everything below moves down a line.
    await server.change(uri, 2, [{ range: range(1, 0, 0), text: 'foo 1 2\n' }]);
    const inserted = await server.waitForVersion(uri, 2);
    const unknown = single(inserted.diagnostics, 'unknown-command');
    assert.equal(unknown.range.start.line, 1);
    assert.equal(unknown.severity, DiagnosticSeverity.Warning);

    // Two changes in one didChange: break the face (now on line 7), then delete the foo line.
    await server.change(uri, 3, [
      { range: range(7, 7, 8), text: '9' },
      { range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, text: '' },
    ]);
    const both = await server.waitForVersion(uri, 3);
    assert.deepEqual(single(both.diagnostics, 'face-index-range').range, range(6, 7, 8));

    // A multi-line replacement spanning the vertices and the face.
    await server.change(uri, 4, [
      { range: { start: { line: 3, character: 0 }, end: { line: 6, character: 8 } }, text: 'vp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvp 1 1 0\nfa 0 1 2\nfa 1 3 2' },
    ]);
    const replaced = await server.waitForVersion(uri, 4);
    assert.deepEqual(replaced.diagnostics, []);
  });

  it('a missing header is an error on the first line', async () => {
    const uri = 'file:///test/header.iqe';
    await server.open(uri, MINIMAL_IQE.split('\n').slice(1).join('\n'), 1);
    const published = await server.waitForVersion(uri, 1);
    assert.ok(codes(published.diagnostics).includes('header'), codes(published.diagnostics).join());
    const header = published.diagnostics.find((d) => d.code === 'header')!;
    assert.equal(header.range.start.line, 0);
    assert.equal(header.severity, DiagnosticSeverity.Error);
  });

  it('a full-text change replaces the document', async () => {
    const uri = 'file:///test/full.iqe';
    await server.open(uri, MINIMAL_IQE, 1);
    await server.waitForVersion(uri, 1);
    await server.change(uri, 2, [{ text: MINIMAL_IQE.replace('fa 0 1 2', 'fa 0 1 5') }]);
    const published = await server.waitForVersion(uri, 2);
    assert.deepEqual(single(published.diagnostics, 'face-index-range').range, range(6, 7, 8));
  });

  it('closing a document clears its diagnostics', async () => {
    const uri = 'file:///test/close.iqe';
    await server.open(uri, 'foo 1 2\n', 1);
    await server.waitForVersion(uri, 1);
    const since = server.mark();
    await server.close(uri);
    const cleared = await server.waitForDiagnostics(uri, () => true, { since });
    assert.deepEqual(cleared.diagnostics, []);
  });

  it('CRLF documents and edits at line ends', async () => {
    const uri = 'file:///test/crlf.iqe';
    const text = MINIMAL_IQE.replace(/\n/g, '\r\n');
    await server.open(uri, text, 1);
    assert.deepEqual((await server.waitForVersion(uri, 1)).diagnostics, []);
    // Append a line at the end of "fa 0 1 2".
    await server.change(uri, 2, [{ range: range(6, 8, 8), text: '\r\nfa 0 1 8' }]);
    const published = await server.waitForVersion(uri, 2);
    assert.deepEqual(single(published.diagnostics, 'face-index-range').range, range(7, 7, 8));
  });

  it('edits that join or split a CR LF pair keep line numbers right', async () => {
    const uri = 'file:///test/cr-join.iqe';
    await server.open(uri, MINIMAL_IQE, 1);
    await server.waitForVersion(uri, 1);
    // A CR typed before the LF at the end of line 5 makes one CR LF line break, not two.
    await server.change(uri, 2, [{ range: range(5, 8, 8), text: '\r' }]);
    await server.change(uri, 3, [{ range: range(6, 7, 8), text: '7' }]);
    const joined = await server.waitForVersion(uri, 3);
    assert.deepEqual(single(joined.diagnostics, 'face-index-range').range, range(6, 7, 8));
    // A lone CR at the end of a line is a line break of its own: "fa 0 1 7" moves to line 7.
    await server.change(uri, 4, [{ range: range(4, 8, 8), text: '\rfoo' }]);
    const split = await server.waitForVersion(uri, 4);
    assert.deepEqual(single(split.diagnostics.filter((d) => d.code !== 'unknown-command'), 'face-index-range').range, range(7, 7, 8));
    assert.equal(split.diagnostics.find((d) => d.code === 'unknown-command')?.range.start.line, 5);
  });

  it('positions past the end of a line or of the document are clamped, as LSP says', async () => {
    const uri = 'file:///test/clamp.iqe';
    await server.open(uri, MINIMAL_IQE, 1);
    await server.waitForVersion(uri, 1);
    // Past the end of the document: appended at the end (the last, empty line is line 7).
    await server.change(uri, 2, [{ range: { start: { line: 100, character: 5 }, end: { line: 120, character: 0 } }, text: 'foo 1\n' }]);
    const appended = await server.waitForVersion(uri, 2);
    assert.equal(single(appended.diagnostics, 'unknown-command').range.start.line, 7);
    // Past the end of a line: at its end, before the line break.
    await server.change(uri, 3, [{ range: range(6, 50, 60), text: '0' }]);
    const extended = await server.waitForVersion(uri, 3);
    const problems = extended.diagnostics.filter((d) => d.code === 'face-index-range');
    assert.deepEqual(problems.map((d) => d.range), [range(6, 7, 9)], 'fa 0 1 20: the index 20 is out of range');
  });

  it('related information points into the same document', async () => {
    const uri = 'file:///test/related.iqe';
    const text = ['# Inter-Quake Export', 'mesh m', 'material mat', 'vp 0 0 0', 'vt 0 0', 'vp 1 0 0', 'vt 1 0', 'vp 0 1 0', 'fa 0 1 2', ''].join('\n');
    await server.open(uri, text, 1);
    const published = await server.waitForVersion(uri, 1);
    const counted = published.diagnostics.find((d) => d.code === 'attribute-count');
    assert.ok(counted, `attribute-count expected, got ${codes(published.diagnostics).join(', ')}`);
    assert.equal(counted.severity, DiagnosticSeverity.Error);
    assert.ok(counted.relatedInformation && counted.relatedInformation.length > 0, 'has related information');
    for (const related of counted.relatedInformation) {
      assert.equal(related.location.uri, uri);
      assert.ok(related.location.range.start.line >= 3 && related.location.range.start.line <= 7, JSON.stringify(related));
      assert.ok(related.message.length > 0);
    }
  });
});
