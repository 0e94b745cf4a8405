// UI check of the preview inside real VS Code (code-server through ../shared/vscode-harness): opens
// models from ../shared/assets by Quick Open (so our custom editor is the default editor), waits for
// the webview to render, checks the pixels and saves screenshots to test-output/vscode-preview/. Run by hand
// after `npm run build` and `bash ../shared/vscode-harness/setup.sh`:
//   node esbuild.mjs --tests && node out/test/browser/vscode-ui.run.js
// (Not part of `npm test`: it takes about half a minute per model on a small machine.)

import { createRequire } from 'node:module';
import { copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

interface Frame {
  textContent(selector: string): Promise<string | null>;
  getAttribute(selector: string, name: string): Promise<string | null>;
  waitForSelector(selector: string, options?: { timeout: number }): Promise<unknown>;
}
interface HarnessSession {
  workspace: string;
  runCommand(title: string): Promise<void>;
  waitForWorkbench(): Promise<void>;
  quickOpen(name: string): Promise<void>;
  findFrame(selector: string, timeoutMs?: number): Promise<Frame>;
  screenshotWebview(name: string, selector: string): Promise<string>;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

async function main(): Promise<number> {
  const repo = process.cwd();
  const harnessPath = resolve(repo, '..', 'shared', 'vscode-harness', 'harness.js');
  const assets = resolve(repo, '..', 'shared', 'assets');
  if (!existsSync(harnessPath) || !existsSync(assets)) {
    console.log('skipped: ../shared/vscode-harness or ../shared/assets is absent');
    return 0;
  }
  const { Session } = createRequire(__filename)(harnessPath) as { Session: { start(o: object): Promise<HarnessSession> } };
  const out = join(repo, 'test-output', 'vscode-preview');
  const s = await Session.start({ extensionDevelopmentPath: repo, workspace: assets, outDir: out, viewport: { width: 1400, height: 900 } });
  let failures = 0;
  try {
    await s.waitForWorkbench();
    for (const [file, shot] of [
      ['mrfixit.iqm', 'mrfixit'],
      ['grunt.dpm', 'grunt'],
      ['upper.md3', 'upper'],
      ['InvalidMeshOffset.iqm', 'invalid'],
    ] as const) {
      await s.quickOpen(file);
      const frame = await s.findFrame('#viewer[data-state="ready"], #viewer[data-state="error"]', 60000);
      const state = await frame.getAttribute('#viewer', 'data-state');
      if (state === 'ready') await frame.waitForSelector('#viewer[data-textures="done"]', { timeout: 60000 });
      const info = ((await frame.textContent('#info')) ?? '').replace(/\s+/g, ' ').slice(0, 300);
      const error = state === 'error' ? await frame.textContent('.error-view') : null;
      console.log(`${file}: ${state}${error ? ` — ${error}` : ''}\n  ${info}`);
      const expectError = file.startsWith('Invalid');
      if ((state === 'error') !== expectError) failures++;
      await s.screenshotWebview(`${shot}-webview`, '#viewer');
      await s.screenshot(`${shot}-window`);
    }
    // The file changes on disk: the open preview reloads (FileSystemWatcher) and keeps its view state.
    await s.quickOpen('watercan.md3');
    let frame = await s.findFrame('#viewer[data-file="watercan.md3"][data-state="ready"]', 60000);
    copyFileSync(join(s.workspace, 'md3', 'watercan', 'watercan_dmg.md3'), join(s.workspace, 'md3', 'watercan', 'watercan.md3'));
    const deadline = Date.now() + 30000;
    let reloaded = false;
    while (Date.now() < deadline && !reloaded) {
      frame = await s.findFrame('#viewer[data-file="watercan.md3"]', 30000);
      reloaded = (await frame.getAttribute('#viewer', 'data-loads')) === '2';
      if (!reloaded) await new Promise((r) => setTimeout(r, 250));
    }
    console.log(`watercan.md3 changed on disk: ${reloaded ? 'the preview reloaded' : 'NO RELOAD'}`);
    if (!reloaded) failures++;
    await s.screenshotWebview('watercan-reloaded-webview', '#viewer');
    // IQE: "IQE: Open Preview to the Side" compiles in memory and shows the model beside the text.
    await s.quickOpen('rocket.iqe');
    await s.runCommand('IQE: Open Preview to the Side');
    frame = await s.findFrame('#viewer[data-file="rocket.iqe"][data-state="ready"]', 60000);
    console.log(`rocket.iqe preview: ${await frame.getAttribute('#viewer', 'data-state')}`);
    await s.screenshot('iqe-preview-to-side-window');
  } finally {
    await s.close();
  }
  console.log(failures ? `${failures} model(s) did not render as expected` : 'all models rendered as expected');
  return failures ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
