// The language features beyond diagnostics, asked the way VS Code asks them: through the
// vscode.execute*Provider commands, which go through the language client to the server.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './harnessClient';
import { codeOf, hasCode, lacksCode, lineOf, openFixture, openUntitled, revertAndClose, tokenRange, tokenStart, waitForDiagnostics } from './helpers';

/** A Location or a LocationLink, as the definition and reference commands may return either. */
function targetOf(item: vscode.Location | vscode.LocationLink): { uri: vscode.Uri; range: vscode.Range } {
  return 'targetUri' in item ? { uri: item.targetUri, range: item.targetSelectionRange ?? item.targetRange } : item;
}

function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n---\n');
}

suite('language features', () => {
  let doc: vscode.TextDocument;
  const head = () => lineOf(doc, 'mesh "head"');

  suiteSetup(async () => {
    doc = await openFixture('features.iqe');
  });

  suiteTeardown(async () => {
    await revertAndClose(doc);
  });

  test('outline: skeleton tree, meshes, animation with its frames, comment', async () => {
    const symbols = await waitFor(
      () => vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', doc.uri).then((s) => (s?.length ? s : undefined)),
      'document symbols',
    );
    assert.deepEqual(symbols.map((s) => s.name), ['skeleton', 'body', 'head', 'wave', 'comment']);
    const root = symbols[0].children[0];
    assert.equal(root.name, 'root');
    assert.equal(root.children[0].name, 'arm');
    assert.equal(root.children[0].children[0].name, 'hand');
    const body = symbols[1];
    assert.deepEqual([body.range.start.line, body.range.end.line], [lineOf(doc, 'mesh "body"'), head() - 1]);
    assert.match(body.detail, /skin\.tga/);
    const wave = symbols[3];
    assert.equal(wave.children.length, 2, 'two frames');
  });

  test('hover: a face index shows the vertex it resolves to', async () => {
    const at = tokenStart(doc, 'fm 0 1 2', '1', 0, head());
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
    const text = hoverText(hovers);
    assert.match(text, new RegExp(`Vertex \\*\\*4\\*\\*, line ${lineOf(doc, 'vp 0 1 2') + 1}`), text);
    assert.match(text, /vp 0 1 2/);
  });

  test('hover: a joint parent names the joint', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, tokenStart(doc, 'joint "hand" 1', '1'));
    assert.match(hoverText(hovers), /joint 1 `arm`/);
  });

  test('go to definition: a face index goes to its vp line, a parent to its joint', async () => {
    const face = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      doc.uri,
      tokenStart(doc, 'fm 0 1 2', '2', 0, head()),
    );
    assert.equal(face.length, 1);
    assert.equal(targetOf(face[0]).uri.toString(), doc.uri.toString());
    assert.equal(targetOf(face[0]).range.start.line, lineOf(doc, 'vp 1 0 2'));
    const parent = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      doc.uri,
      tokenStart(doc, 'joint "hand" 1', '1'),
    );
    assert.deepEqual(parent.map((p) => targetOf(p).range.start.line), [lineOf(doc, 'joint "arm" 0')]);
  });

  test('find references: a joint → its child and the vb lines that use it', async () => {
    const refs = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', doc.uri, tokenStart(doc, 'joint "arm" 0', 'arm'));
    const lines = refs.map((r) => r.range.start.line).sort((a, b) => a - b);
    assert.deepEqual(lines, [lineOf(doc, 'joint "arm" 0'), lineOf(doc, 'joint "hand" 1'), lineOf(doc, '\tvb 1 1'), lineOf(doc, '\tvb 2 0.5 1 0.5')]);
  });

  test('folding: skeleton, each mesh, the animation and each frame', async () => {
    const ranges = await vscode.commands.executeCommand<vscode.FoldingRange[]>('vscode.executeFoldingRangeProvider', doc.uri);
    const have = ranges.map((r) => `${r.start}-${r.end}`);
    const frame = lineOf(doc, 'frame');
    const expected = [
      [lineOf(doc, 'joint "root" -1'), lineOf(doc, 'joint "hand" 1')],
      [lineOf(doc, 'mesh "body"'), head() - 1],
      [head(), lineOf(doc, 'animation "wave"') - 1],
      [frame, lineOf(doc, 'frame', frame + 1) - 1],
    ];
    for (const [start, end] of expected) assert.ok(have.includes(`${start}-${end}`), `no fold ${start}-${end} in ${have.join(', ')}`);
  });

  test('completion: commands at the start of a line, vertexarray types after it', async () => {
    const untitled = await openUntitled('# Inter-Quake Export\nv\nvertexarray \n');
    try {
      const commands = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', untitled.uri, new vscode.Position(1, 1));
      const labels = commands.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      for (const label of ['vp', 'vt', 'vertexarray']) assert.ok(labels.includes(label), `no '${label}' in ${labels.join(' ')}`);
      const types = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', untitled.uri, new vscode.Position(2, 12));
      const typeLabels = types.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      assert.ok(typeLabels.includes('blendindexes'), `no 'blendindexes' in ${typeLabels.join(' ')}`);
    } finally {
      await revertAndClose(untitled);
    }
  });

  test('quick fixes: offered for a diagnostic, and applying one clears it', async () => {
    const fixable = await openFixture('quickfix.iqe');
    try {
      await waitForDiagnostics(fixable.uri, (ds) => hasCode('unknown-command')(ds) && hasCode('number-invalid')(ds), 'the fixable problems');
      const range = tokenRange(fixable, 'Material "skin.tga"', 'Material');
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', fixable.uri, range, vscode.CodeActionKind.QuickFix.value);
      const fix = actions.find((a) => a.title === "Change 'Material' to 'material'");
      assert.ok(fix, `actions: ${actions.map((a) => a.title).join(' | ')}`);
      assert.equal(fix.kind?.value, vscode.CodeActionKind.QuickFix.value);
      assert.ok(fix.edit && (await vscode.workspace.applyEdit(fix.edit)));
      assert.equal(fixable.lineAt(range.start.line).text, 'material "skin.tga"');
      const ds = await waitForDiagnostics(fixable.uri, lacksCode('unknown-command'), 'unknown-command to go after the fix');
      assert.deepEqual(ds.map(codeOf), ['number-invalid']);

      const comma = tokenRange(fixable, 'vp 0 1,5 0', '1,5');
      const more = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', fixable.uri, comma);
      const point = more.find((a) => a.title.includes("'1.5'"));
      assert.ok(point?.edit && (await vscode.workspace.applyEdit(point.edit)), `actions: ${more.map((a) => a.title).join(' | ')}`);
      await waitForDiagnostics(fixable.uri, (d) => d.length === 0, 'a clean document after both fixes');
    } finally {
      await revertAndClose(fixable);
    }
  });
});
