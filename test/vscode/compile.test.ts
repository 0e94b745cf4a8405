// The "compile IQE to IQM" command: run on a fixture, it writes an IQM (to a temporary folder, via
// iqmTools.compile.outputPath) and opens it in the preview beside. Skips, saying why, while the
// extension does not register the command or contribute its settings.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './harnessClient';
import { activeExtension, fixtureUri, setGlobalSetting, workspaceRoot, writeMd5Pair } from './helpers';

const COMMAND = 'iqmTools.compile';
const OUTPUT_SETTING = 'iqmTools.compile.outputPath';

interface CompileOutcome {
  output?: vscode.Uri;
  errors: number;
  cancelled?: boolean;
  notes?: string[];
  writeError?: string;
}

suite('compile command', () => {
  let missing: string | undefined;
  let dir: string;

  suiteSetup(async () => {
    const extension = await activeExtension();
    const settings = (extension.packageJSON as { contributes?: { configuration?: { properties?: Record<string, unknown> } } }).contributes?.configuration?.properties ?? {};
    if (!(await vscode.commands.getCommands(true)).includes(COMMAND)) missing = `the extension does not register ${COMMAND} yet`;
    else if (!(OUTPUT_SETTING in settings)) missing = `package.json does not contribute ${OUTPUT_SETTING} yet`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iqm-tools-vscode-compile-'));
  });

  suiteTeardown(async () => {
    if (!missing) {
      await setGlobalSetting('iqmTools.compile', 'outputPath', undefined);
      await setGlobalSetting('iqmTools.compile', 'animationFiles', undefined);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('compiles an IQE to an IQM file and opens it in the preview', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    // Outside the workspace, so nothing is written into the repository under @vscode/test-electron.
    await setGlobalSetting('iqmTools.compile', 'outputPath', `${dir}/\${fileBasenameNoExtension}.iqm`);
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, fixtureUri('features.iqe'));
    assert.ok(outcome, 'the command returned nothing');
    assert.equal(outcome.errors, 0);
    assert.ok(outcome.output, 'no output file');
    assert.equal(outcome.output.fsPath, path.join(dir, 'features.iqm'));
    const bytes = fs.readFileSync(outcome.output.fsPath);
    assert.equal(bytes.subarray(0, 16).toString('latin1'), 'INTERQUAKEMODEL\0');
    assert.equal(bytes.readUInt32LE(16), 2, 'IQM version');
    assert.equal(bytes.readUInt32LE(20), bytes.length, 'filesize field');

    // The preview of the compiled file opens beside and draws it.
    const output = outcome.output;
    const tab = await waitFor(
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.toString() === output.toString()),
      'the preview of the compiled IQM',
      30000,
    );
    const status = await waitFor(
      () => vscode.commands.executeCommand<{ ok: boolean; triangles: number; joints: number; error: string | null } | null>('iqmTools.previewStatus', output.toString()),
      'the preview to report what it rendered',
      60000,
    );
    assert.equal(status.ok, true, `preview error: ${status.error}`);
    assert.equal(status.triangles, 2);
    assert.equal(status.joints, 3);
    await vscode.window.tabGroups.close(tab);
  });

  test('what the compile notices is listed at its line (degenerate texture coordinates)', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    // One triangle whose corners share one texture coordinate: no tangent direction.
    const lines = ['# Inter-Quake Export', 'mesh "flat"'];
    for (const p of ['0 0 0', '1 0 0', '0 1 0']) lines.push(`vp ${p}`, 'vt 0.5 0.5', 'vn 0 0 1');
    lines.push('fm 0 1 2');
    const source = path.join(dir, 'flat.iqe');
    fs.writeFileSync(source, lines.join('\n') + '\n');
    await setGlobalSetting('iqmTools.compile', 'outputPath', `${dir}/\${fileBasenameNoExtension}.iqm`);
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, vscode.Uri.file(source));
    assert.ok(outcome?.output, 'no output file');
    assert.equal(outcome.errors, 0);
    const note = (outcome.notes ?? []).find((n) => n.endsWith('[degenerate-uv]'));
    assert.ok(note, `no degenerate-uv note among: ${JSON.stringify(outcome.notes)}`);
    // At the vp line of the input vertex it names (vertex i's vp is line 3 + 3 i).
    const vertex = Number(/input vertex (\d+)/.exec(note)?.[1]);
    assert.ok(vertex >= 0 && vertex <= 2, note);
    assert.ok(note.startsWith(`flat.iqe:${3 + 3 * vertex}:1: information: 3 generated tangents needed the fallback`), note);
    // The same note in the Problems panel, at that line, until the file is edited.
    const uri = vscode.Uri.file(source);
    const problem = vscode.languages.getDiagnostics(uri).find((d) => d.source === 'IQE compiler');
    assert.ok(problem, `no compiler note among the file's problems: ${JSON.stringify(vscode.languages.getDiagnostics(uri))}`);
    assert.equal(problem.code, 'degenerate-uv');
    assert.equal(problem.severity, vscode.DiagnosticSeverity.Information);
    assert.equal(problem.range.start.line, 2 + 3 * vertex);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(1, 0), '# edited\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => !vscode.languages.getDiagnostics(uri).some((d) => d.source === 'IQE compiler') || undefined, 'the compiler note to go with the edit', 10000);
    // Saved, so that no dirty document is left for the tests after this one (the file is this test's own).
    await (await vscode.workspace.openTextDocument(uri)).save();
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === outcome.output.toString()) await vscode.window.tabGroups.close(tab);
    }
  });

  test('iqmTools.engine: the compile warns where the IQM it wrote breaks the engine (Problems of the source)', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    // Half-float texture coordinates: Red Eclipse refuses the array.
    const lines = ['# Inter-Quake Export', 'vertexarray texcoord half 2', 'mesh "m"'];
    for (const p of ['0 0 0', '1 0 0', '0 1 0']) lines.push(`vp ${p}`, 'vt 0 0');
    lines.push('fm 0 1 2');
    const source = path.join(dir, 'half.iqe');
    fs.writeFileSync(source, lines.join('\n') + '\n');
    await setGlobalSetting('iqmTools.compile', 'outputPath', `${dir}/\${fileBasenameNoExtension}.iqm`);
    await setGlobalSetting('iqmTools', 'engine', 'redeclipse');
    try {
      const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, vscode.Uri.file(source));
      assert.ok(outcome?.output, 'no output file');
      assert.equal(outcome.errors, 0);
      const uri = vscode.Uri.file(source);
      const problem = vscode.languages.getDiagnostics(uri).find((d) => d.source === 'iqm-tools engine');
      assert.ok(problem, `no engine finding among the file's problems: ${JSON.stringify(vscode.languages.getDiagnostics(uri))}`);
      assert.equal(problem.code, 'array-format');
      assert.equal(problem.severity, vscode.DiagnosticSeverity.Error);
      assert.match(problem.message, /^Red Eclipse \(Tesseract\): vertex array 1 \(texcoord\) is half × 2; float × 2 only .*iqm\.h:129 @01fcd3bc\)$/);
      for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
        if (tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === outcome.output.toString()) await vscode.window.tabGroups.close(tab);
      }
    } finally {
      await setGlobalSetting('iqmTools', 'engine', undefined);
    }
  });

  test('a symbolic link as the output: the linked file gets the IQM and keeps its permissions', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    // dir/linked.iqm -> build/features.iqm, an older build with permissions of its own.
    const built = path.join(dir, 'build', 'features.iqm');
    fs.mkdirSync(path.dirname(built), { recursive: true });
    fs.writeFileSync(built, 'old');
    fs.chmodSync(built, 0o640);
    const link = path.join(dir, 'linked.iqm');
    fs.symlinkSync('build/features.iqm', link);
    await setGlobalSetting('iqmTools.compile', 'outputPath', link);
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, fixtureUri('features.iqe'));
    assert.ok(outcome?.output, `no output file: ${outcome?.writeError}`);
    assert.equal(outcome.output.fsPath, link);
    assert.ok(fs.lstatSync(link).isSymbolicLink(), 'the link was replaced by a file');
    const bytes = fs.readFileSync(built);
    assert.equal(bytes.subarray(0, 16).toString('latin1'), 'INTERQUAKEMODEL\0');
    assert.equal(fs.statSync(built).mode & 0o777, 0o640);
    assert.deepEqual(fs.readdirSync(path.dirname(built)), ['features.iqm'], 'no temporary left');
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === outcome.output.toString()) await vscode.window.tabGroups.close(tab);
    }
  });

  test('an outputPath that names the source itself is refused and the source kept', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    const source = path.join(dir, 'self.iqe');
    const text = fs.readFileSync(fixtureUri('features.iqe').fsPath, 'utf8');
    fs.writeFileSync(source, text);
    await setGlobalSetting('iqmTools.compile', 'outputPath', '${fileDirname}/${fileBasenameNoExtension}.iqe');
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, vscode.Uri.file(source));
    assert.ok(outcome, 'the command returned nothing');
    assert.equal(outcome.output, undefined, 'an output was written');
    assert.match(outcome.writeError ?? '', /is the input .*self\.iqe; the IQM would replace it/);
    assert.equal(fs.readFileSync(source, 'utf8'), text, 'the source was changed');
  });

  test('an outputPath named for another format (.glb) is refused as the CLI refuses -o, nothing written', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    const out = path.join(dir, 'misnamed');
    await setGlobalSetting('iqmTools.compile', 'outputPath', `${out}/\${fileBasenameNoExtension}.glb`);
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, fixtureUri('features.iqe'));
    assert.ok(outcome, 'the command returned nothing');
    assert.equal(outcome.output, undefined, 'an output was written');
    assert.match(outcome.writeError ?? '', /features\.glb is named \.glb, but what is written is IQM.*name it \.iqm/);
    assert.ok(!fs.existsSync(path.join(out, 'features.glb')), 'the misnamed file was written');
  });

  test('several files chosen in the explorer: each is compiled, one with errors is not', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    const good = ['# Inter-Quake Export', 'mesh m', 'vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fm 0 1 2'];
    const files = ['one.iqe', 'two.iqe', 'broken.iqe'].map((name) => path.join(dir, 'many', name));
    fs.mkdirSync(path.join(dir, 'many'), { recursive: true });
    fs.writeFileSync(files[0], good.join('\n') + '\n');
    fs.writeFileSync(files[1], [...good, 'vp 1 1 0', 'fm 1 3 2'].join('\n') + '\n');
    fs.writeFileSync(files[2], [...good.slice(0, 5), 'fm 0 1 9'].join('\n') + '\n');
    await setGlobalSetting('iqmTools.compile', 'outputPath', '${fileDirname}/${fileBasenameNoExtension}.iqm');
    const uris = files.map((f) => vscode.Uri.file(f));
    // As the explorer calls it: the clicked file, then the whole selection (a non-IQE file in it is left out).
    // gone.iqe was selected and then deleted: it is reported, the others still compiled.
    const gone = vscode.Uri.file(path.join(dir, 'many', 'gone.iqe'));
    const outcomes = await vscode.commands.executeCommand<CompileOutcome[] | undefined>(COMMAND, uris[0], [...uris, gone, vscode.Uri.file(path.join(dir, 'many', 'notes.txt'))]);
    assert.ok(Array.isArray(outcomes), `not one outcome per file: ${JSON.stringify(outcomes)}`);
    assert.equal(outcomes.length, 4);
    assert.equal(outcomes[3].output, undefined);
    assert.equal(outcomes[3].errors, 1, 'the missing file is counted as not compiled');
    assert.equal(outcomes[0].output?.fsPath, path.join(dir, 'many', 'one.iqm'));
    assert.equal(outcomes[1].output?.fsPath, path.join(dir, 'many', 'two.iqm'));
    assert.equal(fs.readFileSync(path.join(dir, 'many', 'two.iqm')).readUInt32LE(56), 2, 'two.iqm: num_triangles');
    assert.equal(outcomes[2].output, undefined);
    assert.ok(outcomes[2].errors > 0, 'broken.iqe reported no error');
    assert.deepEqual(fs.readdirSync(path.join(dir, 'many')).sort(), ['broken.iqe', 'one.iqe', 'one.iqm', 'two.iqe', 'two.iqm']);
  });

  test('onSave: saving an animation file rebuilds the model that merges it', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    // In the (generated) workspace, where the search for models looks.
    const folder = vscode.Uri.joinPath(workspaceRoot(), '.tmp-onsave');
    const mesh = ['# Inter-Quake Export', 'joint "root" -1', 'joint "arm" 0', 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1 0 0 0 -1', 'mesh m', 'vp 0 0 0', 'vb 0 1', 'vp 1 0 0', 'vb 1 1', 'vp 0 1 0', 'vb 1 1', 'fm 0 1 2'];
    const walk = ['# Inter-Quake Export', 'joint "root" -1', 'joint "arm" 0', 'animation "walk"', 'frame', 'pq 0 0 0 0 0 0 -1', 'pq 0 0 1 0 0 0 -1'];
    fs.mkdirSync(folder.fsPath, { recursive: true });
    const model = path.join(folder.fsPath, 'model.iqe');
    const anim = vscode.Uri.joinPath(folder, 'model-walk.iqe');
    fs.writeFileSync(model, mesh.join('\n') + '\n');
    fs.writeFileSync(anim.fsPath, walk.join('\n') + '\n');
    const compiled = path.join(folder.fsPath, 'model.iqm');
    try {
      await setGlobalSetting('iqmTools.compile', 'outputPath', '${fileDirname}/${fileBasenameNoExtension}.iqm');
      await setGlobalSetting('iqmTools.compile', 'animationFiles', ['${fileDirname}/model-walk.iqe']);
      await setGlobalSetting('iqmTools.compile', 'onSave', true);
      // A second frame in the animation file, saved.
      const document = await vscode.workspace.openTextDocument(anim);
      const edit = new vscode.WorkspaceEdit();
      edit.insert(anim, new vscode.Position(document.lineCount, 0), 'frame\npq 0 0 0 0 0 0 -1\npq 0 0 1 0.1 0 0 -0.994987\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await document.save());
      // model.iqm: the mesh with the walk of two frames (header num_anims at 84, num_frames at 92).
      const bytes = await waitFor(() => {
        if (!fs.existsSync(compiled)) return undefined;
        const b = fs.readFileSync(compiled);
        return b.length > 96 && b.readUInt32LE(92) === 2 ? b : undefined;
      }, 'model.iqm rebuilt with the two frames of the saved animation file', 30000);
      assert.equal(bytes.readUInt32LE(84), 1, 'animations');
      assert.equal(bytes.readUInt32LE(36), 1, 'num_meshes: the mesh of model.iqe');
    } finally {
      await setGlobalSetting('iqmTools.compile', 'onSave', undefined);
      await setGlobalSetting('iqmTools.compile', 'animationFiles', undefined);
      fs.rmSync(folder.fsPath, { recursive: true, force: true });
    }
  });

  test('iqmTools.compile.animationFiles: the animations of another IQE are added', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    // The skeleton of features.iqe, and one animation of two frames.
    const lines = ['# Inter-Quake Export', 'joint "root" -1', 'joint "arm" 0', 'joint "hand" 1', 'animation "extra"', 'framerate 24'];
    for (let f = 0; f < 2; f++) lines.push('frame', 'pq 0 0 0 0 0 0 -1', `pq 0 0 1 ${0.1 * f} 0 0 ${-Math.sqrt(1 - 0.01 * f * f)}`, 'pq 0 0 1 0 0 0 -1');
    const extra = path.join(dir, 'extra.iqe');
    fs.writeFileSync(extra, lines.join('\n') + '\n');
    await setGlobalSetting('iqmTools.compile', 'outputPath', `${dir}/\${fileBasenameNoExtension}-merged.iqm`);
    await setGlobalSetting('iqmTools.compile', 'animationFiles', [extra]);
    // The setting is taken back at once: the tests after this one compile without it.
    let outcome: CompileOutcome | undefined;
    try {
      outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, fixtureUri('features.iqe'));
    } finally {
      await setGlobalSetting('iqmTools.compile', 'animationFiles', undefined);
    }
    assert.ok(outcome?.output, 'no output file');
    assert.equal(outcome.errors, 0);
    const bytes = fs.readFileSync(outcome.output.fsPath);
    // Header fields num_anims (offset 84) and num_frames (92): features.iqe's "wave" and "extra".
    assert.equal(bytes.readUInt32LE(84), 2, 'animations');
    assert.equal(bytes.readUInt32LE(92), 2 + 2, 'frames');
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === outcome.output.toString()) await vscode.window.tabGroups.close(tab);
    }
  });

  test('the palette compile of an .md5mesh merges the .md5anim beside it; an MD5 with an error puts it in the Problems panel', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    await setGlobalSetting('iqmTools.compile', 'outputPath', `${dir}/\${fileBasenameNoExtension}.iqm`);
    const md5 = path.join(dir, 'md5');
    fs.mkdirSync(md5, { recursive: true });
    const mesh = await writeMd5Pair(vscode.Uri.file(md5));
    // As from the palette: the command on the active editor.
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(md5, 'door.md5mesh')));
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND);
    assert.ok(outcome, 'the command returned nothing');
    assert.equal(outcome.errors, 0, JSON.stringify(outcome));
    assert.ok(outcome.output, 'no output file');
    assert.equal(outcome.output.fsPath, path.join(dir, 'door.iqm'));
    const bytes = fs.readFileSync(outcome.output.fsPath);
    assert.equal(bytes.subarray(0, 16).toString('latin1'), 'INTERQUAKEMODEL\0');
    assert.deepEqual([bytes.readUInt32LE(16 + 4 * 5), bytes.readUInt32LE(16 + 4 * 13), bytes.readUInt32LE(16 + 4 * 17), bytes.readUInt32LE(16 + 4 * 19)], [1, 2, 1, 2], 'meshes, joints, animations, frames');
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const output = outcome.output;
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === output.toString()) await vscode.window.tabGroups.close(tab);
    }

    // A weight naming a joint that does not exist: no output, the error in the Problems panel at its line.
    const broken = path.join(md5, 'broken.md5mesh');
    fs.writeFileSync(broken, mesh.replace('weight 1 1 1', 'weight 1 5 1'));
    // The command waits on its error message (with "Show Problems"): dismissed once the Problems entry is there.
    const failing = vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, vscode.Uri.file(broken));
    const problems = await waitFor(() => {
      const found = vscode.languages.getDiagnostics(vscode.Uri.file(broken));
      return found.length > 0 ? found : undefined;
    }, 'the MD5 error in the Problems panel', 20000);
    await vscode.commands.executeCommand('notifications.clearAll');
    const failed = await failing;
    assert.ok(failed && failed.errors > 0 && !failed.output, JSON.stringify(failed));
    assert.ok(!fs.existsSync(path.join(dir, 'broken.iqm')), 'nothing written');
    assert.deepEqual(problems.map((d) => [d.range.start.line, d.range.start.character, d.severity]), [[18, 10, vscode.DiagnosticSeverity.Error]]);
    assert.match(problems[0].message, /joint 5 does not exist/);
  });

  test('a .glb compiles from the explorer (its skeleton and animation written); a broken one is an error in the Problems panel, nothing written', async function () {
    if (missing) {
      if (this.test) this.test.title += ` [skipped: ${missing}]`;
      this.skip();
    }
    await setGlobalSetting('iqmTools.compile', 'outputPath', `${dir}/\${fileBasenameNoExtension}.iqm`);
    // preview.glb: scripts/make-examples.ts (a 320-vertex tube on 6 joints, a box prop, one animation "Bend").
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, fixtureUri('preview.glb'), [fixtureUri('preview.glb')]);
    assert.ok(outcome && !Array.isArray(outcome), 'the command returned one outcome');
    assert.equal(outcome.errors, 0, JSON.stringify(outcome));
    assert.ok(outcome.output, 'no output file');
    assert.equal(outcome.output.fsPath, path.join(dir, 'preview.iqm'));
    const bytes = fs.readFileSync(outcome.output.fsPath);
    assert.equal(bytes.subarray(0, 16).toString('latin1'), 'INTERQUAKEMODEL\0');
    assert.deepEqual([bytes.readUInt32LE(16 + 4 * 5), bytes.readUInt32LE(16 + 4 * 13), bytes.readUInt32LE(16 + 4 * 17)], [2, 6, 1], 'meshes, joints, animations');
    const output = outcome.output;
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === output.toString()) await vscode.window.tabGroups.close(tab);
    }
    // preview-broken.glb: a JOINTS_0 entry one past the skin's 3 joints.
    const broken = fixtureUri('preview-broken.glb');
    const failing = vscode.commands.executeCommand<CompileOutcome | undefined>(COMMAND, broken);
    const problems = await waitFor(() => {
      const found = vscode.languages.getDiagnostics(broken);
      return found.length > 0 ? found : undefined;
    }, 'the glTF error in the Problems panel', 20000);
    await vscode.commands.executeCommand('notifications.clearAll');
    const failed = await failing;
    assert.ok(failed && failed.errors > 0 && !failed.output, JSON.stringify(failed));
    assert.ok(!fs.existsSync(path.join(dir, 'preview-broken.iqm')), 'nothing written');
    assert.equal(problems[0].severity, vscode.DiagnosticSeverity.Error);
    assert.match(problems[0].message, /joint/i);
  });
});
