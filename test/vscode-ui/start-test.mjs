// `npm start` as a user meets it: runs scripts/start.mjs (code-server through the harness, the
// extension installed on examples/), opens the URL it prints in headless Chromium, compiles
// planted-errors.iqe from the command palette and checks that VS Code pops up the error
// notification on screen (a toast, not only the Notification Center: with the smoke-test driver
// that test runs use, VS Code shows none). Then stops npm start with Ctrl+C (SIGINT), as a user.
//   node test/vscode-ui/start-test.mjs [--out DIR]      (after npm run build)
// Exit status: 0 passed (or skipped without the harness), 1 failed, 2 could not start.
/* global setTimeout, clearTimeout -- node's timers */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outIndex = process.argv.indexOf('--out');
const outDir = resolve(outIndex > 0 ? process.argv[outIndex + 1] : join(repo, 'test-output', 'start'));
const harnessPath = resolve(repo, '..', 'shared', 'vscode-harness', 'harness.js');

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function main() {
  if (!existsSync(harnessPath)) {
    console.log(`[start-test] SKIPPED: ${harnessPath} is absent`);
    return 0;
  }
  const harness = createRequire(import.meta.url)(harnessPath);
  const install = harness.findInstall();
  const { chromium } = createRequire(import.meta.url)(install.playwright);
  mkdirSync(outDir, { recursive: true });
  const port = await freePort();
  // Its own process group, so that Ctrl+C reaches npm start and nothing else.
  const start = spawn(process.execPath, ['scripts/start.mjs'], { cwd: repo, env: { ...process.env, IQM_START_PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  start.stdout.on('data', (d) => (output += d));
  start.stderr.on('data', (d) => (output += d));
  const url = await new Promise((resolveUrl) => {
    const timer = setTimeout(() => resolveUrl(null), 180000);
    const look = () => {
      const m = /^\s+(http:\/\/127\.0\.0\.1:\d+\S*)\s*$/m.exec(output);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    };
    start.stdout.on('data', look);
    start.once('exit', () => resolveUrl(null));
  });
  if (!url) {
    console.error(`[start-test] npm start printed no URL:\n${output}`);
    start.kill('SIGINT');
    return 2;
  }
  console.log(`[start-test] npm start serves ${url}`);
  const browser = await chromium.launch({ executablePath: install.chromium ?? '/usr/bin/chromium', headless: true, args: harness.CHROMIUM_ARGS });
  let status = 1;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // The workbench's first load takes seconds; minutes on a loaded machine (the waits below allow as much).
    await page.goto(url, { timeout: 120000 });
    await page.waitForSelector('.monaco-workbench .part.editor', { timeout: 120000 });
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 }).catch(() => {});
    // Quick Open planted-errors.iqe, then the palette's compile command.
    await page.keyboard.press('Control+P');
    await page.keyboard.type('planted-errors.iqe');
    await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30000 });
    await page.keyboard.press('Enter');
    await page.locator('.tab', { hasText: 'planted-errors.iqe' }).first().waitFor({ timeout: 30000 });
    await page.waitForSelector('.monaco-editor .squiggly-error', { timeout: 60000 });
    await page.keyboard.press('F1');
    await page.keyboard.type('IQE: Compile to IQM');
    await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30000 });
    await page.keyboard.press('Enter');
    const toast = page.locator('.notification-toast', { hasText: 'no IQM was written' }).first();
    await toast.waitFor({ timeout: 60000 });
    const text = (await toast.innerText()).replace(/\s+/g, ' ');
    await page.screenshot({ path: join(outDir, 'npm-start-compile-errors-toast.png') });
    if (!/planted-errors\.iqe has \d+ error\(s\); no IQM was written/.test(text)) throw new Error(`unexpected notification: ${text}`);
    console.log(`[start-test] the notification pops up: ${text}`);
    status = 0;
  } catch (error) {
    console.error('[start-test] FAILED', error);
    console.error(output.slice(-2000));
  } finally {
    await browser.close();
    start.kill('SIGINT');
    await new Promise((r) => (start.exitCode !== null ? r() : start.once('exit', r)));
  }
  return status;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(error);
  process.exitCode = 2;
}
