// "IQE: Compile to IQM" as the command palette runs it (no argument: the active editor), in either
// extension host: the .iqm is written through workspace.fs (a temporary file renamed over it: none
// is left), read back and parsed here, and opens in the preview, which draws it. And on a file
// system that cannot rename (registered here, in memory), the .iqm is written in place and the
// outcome says so. The Node-only behaviour of the compile (links, permissions, several files) is
// in compile.test.ts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readIqm } from '../../core/iqm/reader';
import { waitFor } from './harnessClient';
import { activeExtension, assertPreviewDrawn, fixtureUri, scratchFolder, setGlobalSetting } from './helpers';

/** An in-memory file system whose rename always fails, as some virtual file systems' do. */
class NoRenameFileSystem implements vscode.FileSystemProvider {
  readonly files = new Map<string, Uint8Array>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const bytes = this.files.get(uri.path);
    if (!bytes) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: bytes.length };
  }
  readDirectory(): [string, vscode.FileType][] {
    return [...this.files.keys()].map((path) => [path.slice(1), vscode.FileType.File]);
  }
  createDirectory(): void {}
  readFile(uri: vscode.Uri): Uint8Array {
    const bytes = this.files.get(uri.path);
    if (!bytes) throw vscode.FileSystemError.FileNotFound(uri);
    return bytes;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    this.files.set(uri.path, content);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }
  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }
  rename(): void {
    throw vscode.FileSystemError.Unavailable('this file system cannot rename');
  }
}

interface CompileOutcome {
  output?: vscode.Uri;
  errors: number;
  writeError?: string;
  writeNote?: string;
}

suite('compile from the palette', () => {
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;

  suiteSetup(async () => {
    await activeExtension();
    scratch = await scratchFolder('palette');
  });

  suiteTeardown(async () => {
    await setGlobalSetting('iqmTools.compile', 'outputPath', undefined);
    await scratch.remove();
  });

  test('compiles the active editor\'s IQE to an .iqm and the preview draws it', async function () {
    const source = fixtureUri('features.iqe');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(source), { preview: false });
    await setGlobalSetting('iqmTools.compile', 'outputPath', `${scratch.uri.path}/\${fileBasenameNoExtension}.iqm`);
    const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>('iqmTools.compile');
    assert.ok(outcome?.output, `no output: ${JSON.stringify(outcome)}`);
    assert.equal(outcome.errors, 0);
    assert.equal(outcome.writeNote, undefined, 'written without a rename');
    const output = outcome.output;
    assert.equal(output.toString(), vscode.Uri.joinPath(scratch.uri, 'features.iqm').toString());
    const bytes = await vscode.workspace.fs.readFile(output);
    assert.equal(new TextDecoder('latin1').decode(bytes.subarray(0, 16)), 'INTERQUAKEMODEL\0');
    assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getUint32(20, true), bytes.length, 'filesize field');
    const model = readIqm(bytes);
    assert.equal(model.meshes.reduce((n, m) => n + m.triangleCount, 0), 2);
    assert.equal(model.skeleton?.names.length, 3);
    // The temporary file was renamed over the output: nothing else in the folder.
    assert.deepEqual((await vscode.workspace.fs.readDirectory(scratch.uri)).map(([name]) => name), ['features.iqm']);

    // The command opens the compiled file in the preview beside, which draws it.
    const tab = await waitFor(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.toString() === output.toString()),
      'the preview of the compiled IQM',
      30000,
    );
    const status = await waitFor(
      () => vscode.commands.executeCommand<{ ok: boolean; triangles: number; error: string | null } | null>('iqmTools.previewStatus', output.toString()),
      'the preview to report what it rendered',
      60000,
    );
    assert.equal(status.ok, true, `preview error: ${status.error}`);
    assert.equal(status.triangles, 2);
    await assertPreviewDrawn(this, 'palette-compiled-iqm', 'features.iqm');
    await vscode.window.tabGroups.close(tab);
  });

  test('a file system that cannot rename: the .iqm is written in place, and the outcome says so', async () => {
    const fileSystem = new NoRenameFileSystem();
    const registration = vscode.workspace.registerFileSystemProvider('iqm-test-norename', fileSystem);
    try {
      await setGlobalSetting('iqmTools.compile', 'outputPath', undefined);
      fileSystem.files.set('/features.iqe', await vscode.workspace.fs.readFile(fixtureUri('features.iqe')));
      const source = vscode.Uri.from({ scheme: 'iqm-test-norename', path: '/features.iqe' });
      const outcome = await vscode.commands.executeCommand<CompileOutcome | undefined>('iqmTools.compile', source, [source]);
      assert.ok(outcome?.output, `no output: ${JSON.stringify(outcome)}`);
      assert.match(outcome.writeNote ?? '', /could not rename .* written in place, not atomically/);
      assert.deepEqual([...fileSystem.files.keys()].sort(), ['/features.iqe', '/features.iqm'], 'a temporary file was left');
      assert.equal(readIqm(fileSystem.files.get('/features.iqm')!).meshes.length, 2);
    } finally {
      for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
        if (tab.input instanceof vscode.TabInputCustom && tab.input.uri.scheme === 'iqm-test-norename') await vscode.window.tabGroups.close(tab);
      }
      registration.dispose();
    }
  });
});
