// Run by bench/compile-web.ts inside VS Code through the harness (extensionTestsPath), once in the
// Node extension host and once in the web worker host: "IQE: Compile to IQM" on the workspace's
// mid.iqe (not open: the Node host's worker streams it from disk, the web host reads it through
// workspace.fs and posts the text to its Web Worker; both write through workspace.fs), RUNS times.
// Prints one line per run, `[bench] {...}`, which the bench reads from the harness's console log.
import * as vscode from 'vscode';
import { activated } from './activated';

const RUNS = 5;

interface Outcome {
  output?: vscode.Uri;
  errors: number;
  compileMs?: number;
  writeError?: string;
}

export async function run(): Promise<void> {
  const { host, folder } = await activated();
  const source = vscode.Uri.joinPath(folder, 'mid.iqe');
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    // As from the explorer's context menu: it also opens the .iqm in the preview beside (the time
    // includes opening that tab, not drawing it).
    const outcome = await vscode.commands.executeCommand<Outcome | undefined>('iqmTools.compile', source);
    const commandMs = performance.now() - t0;
    if (!outcome?.output) throw new Error(`no output: ${JSON.stringify(outcome)}`);
    const bytes = (await vscode.workspace.fs.stat(outcome.output)).size;
    console.log(`[bench] ${JSON.stringify({ host, run: i, commandMs, compileMs: outcome.compileMs, bytes })}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
}
