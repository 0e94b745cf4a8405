// Helpers for tests that run inside the extension host, under the code-server harness
// (../shared/vscode-harness, see ../shared/docs/VSCODE-HARNESS.md) or under @vscode/test-electron.
//
// The harness sets VSCODE_HARNESS_DIR for code-server and hence for the extension host; it watches
// that directory. Outside the harness the variable is unset and captureMochaOutput and
// requestScreenshot do nothing, so the suite runs unchanged on a desktop VS Code.
//
// Protocol (plain files in $VSCODE_HARNESS_DIR):
// - exthost-console.log: every line appended is echoed by the harness as 'exthost: ...' and saved
//   as OUT/extension-host-console.log. (Replacing console.log does not work: the extension host
//   installs console methods that ignore reassignment, so we hook mocha's reporter output.)
// - <name>.json = {name, webviewSelector?}: a screenshot request, written atomically (tmp + rename).
//   The harness answers with <name>.done (a JSON list of the files written) or <name>.error (text).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The harness's exchange directory, or undefined when not running under the harness. */
export function harnessDir(): string | undefined {
  return process.env.VSCODE_HARNESS_DIR || undefined;
}

interface MochaLike {
  reporters: { Base: { consoleLog: (...args: unknown[]) => void } };
}

/** Mirrors what mocha's reporters print (Mocha.reporters.Base.consoleLog) into the harness's capture file. */
export function captureMochaOutput(mocha: MochaLike): void {
  const dir = harnessDir();
  const base = mocha.reporters.Base as MochaLike['reporters']['Base'] & { __harnessCaptured?: boolean };
  if (!dir || base.__harnessCaptured) return;
  const file = path.join(dir, 'exthost-console.log');
  const original = base.consoleLog;
  base.consoleLog = (...args: unknown[]) => {
    try {
      fs.appendFileSync(file, `${util.format(...args)}\n`);
    } catch {
      // the harness has gone; the original still prints
    }
    original(...args);
  };
  base.__harnessCaptured = true;
}

/**
 * Polls `probe` (every 50 ms) until it returns a truthy value, and returns that value. Throws after
 * `timeoutMs`, with `describe()` (the last state seen) in the message so a failure says why.
 */
export async function waitFor<T>(
  probe: () => T | undefined | null | false | PromiseLike<T | undefined | null | false>,
  what: string,
  timeoutMs = 20000,
  describe?: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${describe ? `; last seen: ${describe()}` : ''}`);
    }
    await sleep(50);
  }
}

/**
 * Asks the harness for a screenshot of the window (OUT/<name>.png) and, with webviewSelector, of
 * the webview whose document contains it (OUT/<name>-webview.png); resolves with the files
 * written. Resolves with null at once when not running under the harness.
 */
export async function requestScreenshot(name: string, options: { webviewSelector?: string; timeoutMs?: number } = {}): Promise<string[] | null> {
  const dir = harnessDir();
  if (!dir) return null;
  const base = path.join(dir, name.replace(/[^A-Za-z0-9._-]/g, '_'));
  fs.writeFileSync(`${base}.json.tmp`, JSON.stringify({ name, webviewSelector: options.webviewSelector }));
  fs.renameSync(`${base}.json.tmp`, `${base}.json`);
  await waitFor(() => fs.existsSync(`${base}.done`) || fs.existsSync(`${base}.error`), `screenshot ${name}`, options.timeoutMs ?? 60000);
  if (fs.existsSync(`${base}.error`)) throw new Error(`screenshot ${name}: ${fs.readFileSync(`${base}.error`, 'utf8')}`);
  return JSON.parse(fs.readFileSync(`${base}.done`, 'utf8')) as string[];
}
