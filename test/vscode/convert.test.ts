// "Convert to IQE" (iqmTools.convertToIqe) on the preview fixtures (scripts/make-vscode-fixtures.mjs),
// copied outside the workspace so nothing is written into the repository: the command writes the
// IQE beside the model, opens it beside, and the file compiles back (our core compile) to the same
// model. Skips, saying why, while the extension does not register the command.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { compile } from '../../core/compile/index';
import { textSource } from '../../core/formats/sources';
import { diffModels } from '../../core/compare/diff';
import { readModel } from '../../core/formats/models';
import { waitFor } from './harnessClient';
import { activeExtension, fixtureUri, writeMd5Pair } from './helpers';

const COMMAND = 'iqmTools.convertToIqe';

interface ConvertOutcome {
  output?: vscode.Uri;
  warnings: string[];
  error?: string;
}

suite('convert to IQE command', () => {
  let missing: string | undefined;
  let dir: string;

  suiteSetup(async () => {
    await activeExtension();
    if (!(await vscode.commands.getCommands(true)).includes(COMMAND)) missing = `the extension does not register ${COMMAND} yet`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iqm-tools-vscode-convert-'));
  });

  suiteTeardown(async () => {
    // The command opens each IQE beside: close them, or every later test's editor or preview gets
    // a sliver of the window (a preview a few pixels wide draws nothing).
    const opened = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => {
      const input = t.input;
      const uri = input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
      return uri?.scheme === 'file' && uri.fsPath.startsWith(dir);
    });
    await vscode.window.tabGroups.close(opened);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function skipIfMissing(context: Mocha.Context): void {
    if (!missing) return;
    if (context.test) context.test.title += ` [skipped: ${missing}]`;
    context.skip();
  }

  /** A copy of a fixture in the temporary folder (under another name when given). */
  function copy(name: string, as = name): vscode.Uri {
    const target = path.join(dir, as);
    fs.copyFileSync(fixtureUri(name).fsPath, target);
    return vscode.Uri.file(target);
  }

  function compiled(file: string) {
    const result = compile([textSource(fs.readFileSync(file, 'utf8'), file)]);
    const errors = result.diagnostics.map((d) => d.diagnostic).filter((d) => d.severity === 'error');
    assert.deepEqual(errors.map((d) => `${d.range.line + 1}: ${d.message}`), [], 'the IQE compiles');
    assert.ok(result.bytes);
    return readModel(result.bytes);
  }

  test('an IQM: writes NAME.iqe beside it, opens it beside, and it compiles back to the same model', async function () {
    skipIfMissing(this);
    const source = copy('preview.iqm');
    const outcome = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, source);
    assert.ok(outcome, 'the command returned nothing');
    assert.equal(outcome.error, undefined);
    assert.ok(outcome.output);
    assert.equal(outcome.output.fsPath, path.join(dir, 'preview.iqe'));
    const text = fs.readFileSync(outcome.output.fsPath, 'utf8');
    assert.ok(text.startsWith('# Inter-Quake Export\n'));
    const original = readModel(new Uint8Array(fs.readFileSync(source.fsPath)));
    assert.deepEqual(diffModels(original, compiled(outcome.output.fsPath)), []);
    // Opened in a text editor (beside the preview when one is open).
    await waitFor(() => vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === outcome.output!.fsPath), 'the IQE opened in an editor');
  });

  test('a DPM: its triangles reversed to IQM winding, its frames as animations; a second run replaces the file when allowed', async function () {
    skipIfMissing(this);
    const source = copy('preview.dpm', 'skinned.dpm');
    const first = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, source);
    assert.ok(first?.output, first?.error ?? 'no output');
    assert.ok(first.warnings.some((w) => /triangles are reversed/.test(w)), first.warnings.join('; '));
    const dpm = readModel(new Uint8Array(fs.readFileSync(source.fsPath)));
    const back = compiled(first.output.fsPath);
    assert.equal(back.frameCount, dpm.frameCount);
    assert.deepEqual(back.skeleton?.names, dpm.skeleton?.names);
    assert.equal(back.meshes.reduce((n, m) => n + m.triangleCount, 0), dpm.meshes.reduce((n, m) => n + m.triangleCount, 0));
    // The file exists now: with overwrite allowed (the modal question is for people) it is replaced.
    fs.writeFileSync(first.output.fsPath, 'stale');
    const second = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, source, { overwrite: true });
    assert.ok(second?.output);
    assert.ok(fs.readFileSync(second.output.fsPath, 'utf8').startsWith('# Inter-Quake Export'));
  });

  test('an .md5mesh (a source of the reference compiler): compiled, then written as NAME.iqe with its skeleton', async function () {
    skipIfMissing(this);
    const md5 = path.join(dir, 'md5');
    fs.mkdirSync(md5, { recursive: true });
    await writeMd5Pair(vscode.Uri.file(md5));
    const source = vscode.Uri.file(path.join(md5, 'door.md5mesh'));
    const outcome = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, source);
    assert.ok(outcome?.output, outcome?.error ?? 'no output');
    assert.equal(outcome.output.fsPath, path.join(md5, 'door.iqe'));
    const back = compiled(outcome.output.fsPath);
    assert.deepEqual(back.skeleton?.names, ['root', 'arm']);
    assert.equal(back.meshes.reduce((n, m) => n + m.triangleCount, 0), 1);
  });

  test('an IQE: written as NAME.converted.iqe (never over itself), the compiled model written out', async function () {
    skipIfMissing(this);
    const source = copy('features.iqe');
    const outcome = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, source);
    assert.ok(outcome?.output, outcome?.error ?? 'no output');
    assert.equal(outcome.output.fsPath, path.join(dir, 'features.converted.iqe'));
    const once = compile([textSource(fs.readFileSync(source.fsPath, 'utf8'), source.fsPath)]);
    assert.ok(once.bytes);
    assert.deepEqual(diffModels(readModel(once.bytes), compiled(outcome.output.fsPath)), []);
  });

  test('a .glb (compiled in the compile worker, where the glTF reader is): written as NAME.iqe with its skeleton and animation; a broken one is an error, nothing written', async function () {
    skipIfMissing(this);
    // preview.glb: scripts/make-examples.ts (a 320-vertex tube on 6 joints, a box prop, one animation "Bend").
    const source = copy('preview.glb', 'tube.glb');
    const outcome = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, source);
    assert.ok(outcome?.output, outcome?.error ?? 'no output');
    assert.equal(outcome.output.fsPath, path.join(dir, 'tube.iqe'));
    const back = compiled(outcome.output.fsPath);
    assert.equal(back.meshes.length, 2);
    assert.equal(back.skeleton?.names.length, 6);
    assert.deepEqual(back.clips.map((c) => c.name), ['Bend']);
    // preview-broken.glb: a JOINTS_0 entry one past the skin's 3 joints.
    const broken = copy('preview-broken.glb');
    const failed = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, broken);
    assert.ok(failed?.error, 'an error is reported');
    assert.match(failed.error, /preview-broken\.glb: .*joint/i);
    assert.equal(fs.existsSync(path.join(dir, 'preview-broken.iqe')), false);
  });

  test('bad input: an error, and nothing written', async function () {
    skipIfMissing(this);
    const bad = path.join(dir, 'truncated.iqm');
    fs.writeFileSync(bad, fs.readFileSync(fixtureUri('preview.iqm').fsPath).subarray(0, 60));
    const outcome = await vscode.commands.executeCommand<ConvertOutcome | undefined>(COMMAND, vscode.Uri.file(bad));
    assert.ok(outcome?.error, 'an error is reported');
    assert.match(outcome.error, /truncated\.iqm: .*\(at byte \d+\)/);
    assert.equal(fs.existsSync(path.join(dir, 'truncated.iqe')), false);
  });
});
