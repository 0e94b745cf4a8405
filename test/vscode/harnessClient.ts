// Helpers for tests that run inside the extension host, under the code-server harness
// (../shared/vscode-harness, see ../shared/docs/VSCODE-HARNESS.md) or under @vscode/test-electron.
// Host-neutral: every file goes through vscode.workspace.fs, so the same helpers work in the Node
// extension host and in the browser's web worker extension host (no fs, no environment there).
//
// The harness watches an exchange directory: in the Node host $VSCODE_HARNESS_DIR names it; the web
// worker host has no environment, so it is found where the harness creates it, beside the copy of
// the workspace it opens (<temp>/workspace and <temp>/requests, harness.js Session). Outside the
// harness there is none, and captureMochaOutput and requestScreenshot do nothing.
//
// Protocol (plain files in the exchange directory):
// - exthost-console.log: every line appended is echoed by the harness as 'exthost: ...' and saved
//   as OUT/extension-host-console.log. (Replacing console.log does not work: the extension host
//   installs console methods that ignore reassignment, so we hook mocha's reporter output.)
// - <name>.json = {name, webviewSelector?}: a screenshot request, written atomically (tmp + rename).
//   The harness answers with <name>.done (a JSON list of the files written) or <name>.error (text).
import * as vscode from 'vscode';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const CONSOLE_FILE = 'exthost-console.log';

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

let found: Promise<vscode.Uri | undefined> | undefined;

/** The harness's exchange directory, or undefined when not running under the harness. */
export function harnessDir(): Promise<vscode.Uri | undefined> {
  found ??= (async () => {
    const fromEnvironment = typeof process === 'undefined' ? undefined : process.env?.VSCODE_HARNESS_DIR;
    if (fromEnvironment) return vscode.Uri.file(fromEnvironment);
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!workspace || !workspace.path.endsWith('/workspace')) return undefined;
    const beside = vscode.Uri.joinPath(workspace, '..', 'requests');
    return (await exists(beside)) ? beside : undefined;
  })();
  return found;
}

/** The capture file's writes so far (index.ts waits for them before the suite's result is reported). */
let writing: Promise<void> = Promise.resolve();

/** Resolves when every line captured so far is in the capture file. */
export function mochaOutputWritten(): Promise<void> {
  return writing;
}

/** util.format's %s/%d/%i/%j substitutions, the only ones mocha's reporters use; the rest joined by spaces. */
function format(args: unknown[]): string {
  const rest = [...args];
  let head = typeof rest[0] === 'string' ? (rest.shift() as string) : '';
  head = head.replace(/%[sdij%]/g, (spec) => (spec === '%%' ? '%' : rest.length === 0 ? spec : spec === '%j' ? JSON.stringify(rest.shift()) : String(rest.shift())));
  return [head, ...rest.map(String)].filter((part, i) => i > 0 || part !== '' || rest.length === 0).join(' ');
}

interface MochaLike {
  reporters: { Base: { consoleLog: (...args: unknown[]) => void } };
}

/**
 * Mirrors what mocha's reporters print (Mocha.reporters.Base.consoleLog) into the harness's capture
 * file. Lines are written in order, a few at a time (the whole text each time: the harness echoes
 * what is new past the last complete line it saw).
 */
export function captureMochaOutput(mocha: MochaLike): void {
  const base = mocha.reporters.Base as MochaLike['reporters']['Base'] & { __harnessCaptured?: boolean };
  if (base.__harnessCaptured) return;
  base.__harnessCaptured = true;
  const original = base.consoleLog;
  let text = '';
  base.consoleLog = (...args: unknown[]) => {
    text += `${format(args)}\n`;
    const snapshot = text;
    writing = writing.then(async () => {
      const dir = await harnessDir();
      if (!dir || snapshot !== text) return; // a later call writes the longer text
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, CONSOLE_FILE), new TextEncoder().encode(snapshot)).then(undefined, () => undefined);
    });
    original(...args);
  };
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
 * written (as URIs on the extension host's file system). Resolves with null at once when not
 * running under the harness.
 */
export async function requestScreenshot(name: string, options: { webviewSelector?: string; timeoutMs?: number } = {}): Promise<vscode.Uri[] | null> {
  const dir = await harnessDir();
  if (!dir) return null;
  const base = name.replace(/[^A-Za-z0-9._-]/g, '_');
  const file = (suffix: string) => vscode.Uri.joinPath(dir, `${base}${suffix}`);
  await vscode.workspace.fs.writeFile(file('.json.tmp'), new TextEncoder().encode(JSON.stringify({ name, webviewSelector: options.webviewSelector })));
  try {
    await vscode.workspace.fs.rename(file('.json.tmp'), file('.json'), { overwrite: true });
  } catch (error) {
    // The harness may take the request (renaming it) before VS Code has looked at the renamed file:
    // the rename happened when the temporary file is gone.
    if (await exists(file('.json.tmp'))) throw error;
  }
  const answer = await waitFor(
    async () => ((await exists(file('.done'))) ? '.done' : (await exists(file('.error'))) ? '.error' : undefined),
    `screenshot ${name}`,
    options.timeoutMs ?? 60000,
  );
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file(answer)));
  if (answer === '.error') throw new Error(`screenshot ${name}: ${text}`);
  return (JSON.parse(text) as string[]).map((path) => dir.with({ path }));
}
