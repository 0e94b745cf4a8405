// Run by bench/preview-first-frame.ts inside VS Code through the harness (extensionTestsPath), once
// in the Node extension host and once in the web worker host. Opens each model of the workspace's
// bench-files.json in its preview, RUNS rounds (the files interleaved, so the machine's load
// spreads over all of them), waits for the first frame with its textures (or the first frame of a
// model that asks for none; at most TEXTURES_WAIT_MS after the first frame), and prints the first load's timeline (core/previewTimeline.ts), both
// sides' stamps, with the open command's own: one `[bench] {...}` line per open, which the bench
// reads from the harness's console log. The file list comes through the workspace because the web
// worker host has no environment.
import * as vscode from 'vscode';
import { activated } from './activated';

interface BenchFiles {
  runs: number;
  files: { path: string; viewType: string }[];
}

interface Status {
  ok: boolean;
  error: string | null;
  timeline: { stamps: Record<string, number>; compileMs: number | null } | null;
}

/** How long one open may take to its first frame before it counts as failed, ms. */
const OPEN_TIMEOUT_MS = 60_000;
/** How long the textures may take after the first frame before the open is recorded without them, ms. */
const TEXTURES_WAIT_MS = 20_000;
/** Between opens: the closed panel's webview and worker go before the next open, ms. */
const PAUSE_MS = 500;

const pause = (ms: number) => new Promise<void>((done) => setTimeout(() => done(), ms));

/**
 * The status command's answer once this open's timeline is complete (its panel resolved after
 * `since`): the textured frame drawn, or no texture asked for; or, when the textures are not
 * answered within TEXTURES_WAIT_MS of the first frame, what it has then (`unanswered`).
 */
async function finished(uri: vscode.Uri, since: number): Promise<{ status: Status; unanswered: boolean }> {
  const deadline = Date.now() + OPEN_TIMEOUT_MS;
  let status: Status | null = null;
  while (Date.now() < deadline) {
    status = await vscode.commands.executeCommand<Status | null>('iqmTools.previewStatus', uri.toString());
    const stamps = status?.timeline?.stamps;
    if (status && stamps && stamps.resolved >= since) {
      if (!status.ok) throw new Error(`${uri.path}: the preview failed: ${status.error}`);
      if (stamps.texturedFrame !== undefined || stamps.noTextures !== undefined) return { status, unanswered: false };
      if (stamps.firstFrame !== undefined && Date.now() - stamps.firstFrame > TEXTURES_WAIT_MS) return { status, unanswered: true };
    }
    await pause(10);
  }
  throw new Error(`${uri.path}: no first frame within ${OPEN_TIMEOUT_MS} ms; the status said ${JSON.stringify(status)}`);
}

export async function run(): Promise<void> {
  const { host, folder } = await activated();
  const list = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'bench-files.json')))) as BenchFiles;
  for (let run = 0; run < list.runs; run++) {
    for (const file of list.files) {
      const uri = vscode.Uri.joinPath(folder, file.path);
      const open = Date.now();
      await vscode.commands.executeCommand('vscode.openWith', uri, file.viewType);
      const { status, unanswered } = await finished(uri, open);
      const timeline = status.timeline ?? { stamps: {}, compileMs: null };
      console.log(`[bench] ${JSON.stringify({ host, file: file.path, run, stamps: { open, ...timeline.stamps }, compileMs: timeline.compileMs, unanswered })}`);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await pause(PAUSE_MS);
    }
  }
}
