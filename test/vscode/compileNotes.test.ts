// Every note of a compile reaches the Problems panel (source "IQE compiler") at the file it is
// about, and the output channel (the outcome's notes are its lines): what the readers notice (an
// OBJ's unreadable .mtl, its concave faces, a glTF animation with nothing to sample) as well as
// the compile's own (degenerate texture coordinates), from one file and from several chosen in
// the explorer, and those of the sources when an animation file stops the compile; Convert to IQE
// lists them with its notes. Runs in both hosts (only workspace.fs).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeExtension, codeOf, scratchFolder, setGlobalSetting, utf8 } from './helpers';

const COMMAND = 'iqmTools.compile';
const COMPILER_SOURCE = 'IQE compiler';

interface CompileOutcome {
  output?: vscode.Uri;
  errors: number;
  notes?: string[];
}

/** One triangle whose corners share one texture coordinate: the compile's degenerate-uv note. */
const FLAT_IQE = ['# Inter-Quake Export', 'mesh "flat"', ...['0 0 0', '1 0 0', '0 1 0'].flatMap((p) => [`vp ${p}`, 'vt 0.5 0.5', 'vn 0 0 1']), 'fm 0 1 2', ''].join('\n');
/** A triangle and a .mtl that is not there: the reader's obj-mtl-missing warning. */
const NO_MTL_OBJ = 'mtllib gone.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl skin\nf 1 2 3\n';
/** A dart (one reflex corner): the reader's obj-concave note (split by ear clipping). */
const CONCAVE_OBJ = 'v 0 0 0\nv 2 1 0\nv 0 2 0\nv 0.5 1 0\nf 1 2 3 4\n';

/** A glTF triangle with an animation "RESET" of one key (as Blender exports it): dropped, nothing to sample. */
function resetGltf(): string {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const times = new Float32Array([0]);
  const translation = new Float32Array([0, 0, 0]);
  const bytes = new Uint8Array(positions.byteLength + times.byteLength + translation.byteLength);
  bytes.set(new Uint8Array(positions.buffer), 0);
  bytes.set(new Uint8Array(times.buffer), 36);
  bytes.set(new Uint8Array(translation.buffer), 40);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return JSON.stringify({
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: 'tri' }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    buffers: [{ byteLength: bytes.length, uri: `data:application/octet-stream;base64,${btoa(binary)}` }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 36 },
      { buffer: 0, byteOffset: 36, byteLength: 4 },
      { buffer: 0, byteOffset: 40, byteLength: 12 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5126, count: 1, type: 'SCALAR', min: [0], max: [0] },
      { bufferView: 2, componentType: 5126, count: 1, type: 'VEC3' },
    ],
    animations: [{ name: 'RESET', samplers: [{ input: 1, output: 2 }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }],
  });
}

/** The compiler's entries of `uri` in the Problems panel, by code. */
function compilerCodes(uri: vscode.Uri): string[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === COMPILER_SOURCE).map(codeOf);
}

suite('compile notes in Problems', () => {
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;

  suiteSetup(async () => {
    await activeExtension();
    scratch = await scratchFolder('notes');
    // Each IQM beside its source, in the scratch folder.
    await setGlobalSetting('iqmTools.compile', 'outputPath', undefined);
  });

  suiteTeardown(async () => {
    await setGlobalSetting('iqmTools.compile', 'animationFiles', undefined);
    await scratch.remove();
  });

  async function write(name: string, text: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(scratch.uri, name);
    await vscode.workspace.fs.writeFile(uri, utf8(text));
    return uri;
  }

  test('four sources chosen in the explorer: each one\'s notes are in Problems and the log (unreadable .mtl, concave faces, a dropped glTF animation, degenerate texture coordinates)', async () => {
    const sources: [vscode.Uri, string][] = [
      [await write('flat.iqe', FLAT_IQE), 'degenerate-uv'],
      [await write('nomtl.obj', NO_MTL_OBJ), 'obj-mtl-missing'],
      [await write('dart.obj', CONCAVE_OBJ), 'obj-concave'],
      [await write('reset.gltf', resetGltf()), 'gltf-animation-empty'],
    ];
    const uris = sources.map(([uri]) => uri);
    const outcomes = await vscode.commands.executeCommand<CompileOutcome[] | undefined>(COMMAND, uris[0], uris);
    assert.ok(Array.isArray(outcomes) && outcomes.length === 4, `outcomes: ${JSON.stringify(outcomes)}`);
    for (const [i, [uri, code]] of sources.entries()) {
      const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
      assert.ok(outcomes[i].output, `${name} was not compiled: ${JSON.stringify(outcomes[i])}`);
      assert.ok((outcomes[i].notes ?? []).some((n) => n.startsWith(`${name}:`) && n.endsWith(`[${code}]`)), `no ${code} note of ${name} in the log: ${JSON.stringify(outcomes[i].notes)}`);
      assert.ok(compilerCodes(uri).includes(code), `no ${code} entry in the Problems of ${name}: ${JSON.stringify(vscode.languages.getDiagnostics(uri))}`);
    }
    // At the line it is about: the mtllib line.
    const mtl = vscode.languages.getDiagnostics(uris[1]).find((d) => d.source === COMPILER_SOURCE && codeOf(d) === 'obj-mtl-missing');
    assert.equal(mtl?.range.start.line, 0);
    assert.equal(mtl?.severity, vscode.DiagnosticSeverity.Warning);
  });

  test('one OBJ from the palette or the explorer: its reader\'s warning is in Problems', async () => {
    const uri = await write('alone.obj', NO_MTL_OBJ);
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, uri);
    assert.ok(outcome?.output, `not compiled: ${JSON.stringify(outcome)}`);
    assert.ok(compilerCodes(uri).includes('obj-mtl-missing'), `no obj-mtl-missing entry in the Problems of alone.obj: ${JSON.stringify(vscode.languages.getDiagnostics(uri))}`);
    // The preview of the IQM opened beside: closed again.
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === outcome.output.toString()) await vscode.window.tabGroups.close(tab);
    }
  });

  test('Convert to IQE of a glTF lists what its compile noticed (the dropped RESET animation)', async () => {
    const source = await write('reset-convert.gltf', resetGltf());
    const outcome = await vscode.commands.executeCommand<{ output?: vscode.Uri; warnings: string[]; error?: string } | undefined>('iqmTools.convertToIqe', source);
    try {
      assert.ok(outcome?.output, outcome?.error ?? 'no output');
      assert.ok(outcome.warnings.some((w) => /'RESET'.*dropped/.test(w)), `the dropped animation is not among the conversion's notes: ${JSON.stringify(outcome.warnings)}`);
    } finally {
      const written = outcome?.output?.toString();
      await vscode.window.tabGroups.close(vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === written));
    }
  });

  test('an animation file with errors stops the compile: the source\'s own notes are in Problems too', async () => {
    const mesh = await write('mesh.obj', NO_MTL_OBJ);
    const bad = await write('bad.smd', 'version 1\nnodes\n0 "root" -1\nend\nskeleton\ntime 0\n0 zero 0 0 0 0 0\nend\n');
    await setGlobalSetting('iqmTools.compile', 'animationFiles', ['bad.smd']);
    try {
      // Two files chosen in the explorer (no message waits for an answer); both merge bad.smd.
      const other = await write('other.obj', CONCAVE_OBJ);
      const outcomes = await vscode.commands.executeCommand<CompileOutcome[] | undefined>(COMMAND, mesh, [mesh, other]);
      const outcome = outcomes?.[0];
      assert.ok(outcome && !outcome.output && outcome.errors > 0, `expected the animation file to stop the compile: ${JSON.stringify(outcomes)}`);
      assert.ok(compilerCodes(bad).length > 0, `no error of bad.smd in Problems: ${JSON.stringify(vscode.languages.getDiagnostics(bad))}`);
      assert.ok(compilerCodes(mesh).includes('obj-mtl-missing'), `no obj-mtl-missing entry in the Problems of mesh.obj: ${JSON.stringify(vscode.languages.getDiagnostics(mesh))}`);
    } finally {
      await setGlobalSetting('iqmTools.compile', 'animationFiles', undefined);
    }
  });
});
