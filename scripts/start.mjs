// `npm start`: builds the extension, writes the generated examples, and opens them in VS Code with
// this folder as the extension under development.
//  - With the desktop `code` command on PATH: `code --extensionDevelopmentPath=. examples/`.
//  - Otherwise, with ../shared/vscode-harness installed: starts code-server (VS Code for the web)
//    through the harness on 127.0.0.1 with the extension installed on examples/, prints the URL to
//    open in a browser, and runs until Ctrl+C, which ends everything it started. The extension is
//    installed as a user's is (this folder linked into the session's extensions), without the
//    smoke-test driver that test runs need: with that driver VS Code shows no notifications, so a
//    compile with errors would say nothing on screen. After `npm run build`, reload the window.
//  - Otherwise (no VS Code at all): the examples in the model preview without VS Code,
//    `iqm-tools view` (the default browser opened on it: $BROWSER, else the system's), until
//    Ctrl+C; and it says how to get VS Code for the rest (diagnostics, compile, the editor).
// IQM_START_PORT=8080 npm start picks the code-server (or view) port (default: a free one).
// IQM_START_WEB=1 npm start runs the extension's `browser` entry in the web worker extension host,
// as vscode.dev does (desktop: --extensionDevelopmentKind=web; code-server: remote.extensionKind).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const run = (command, args, options = {}) => spawnSync(command, args, { stdio: 'inherit', ...options });

if (run(process.execPath, ['esbuild.mjs']).status !== 0) process.exit(1);
if (run(process.execPath, ['scripts/make-examples.mjs', 'examples']).status !== 0) process.exit(1);

const root = resolve('.');
const web = Boolean(process.env.IQM_START_WEB);
const examples = resolve('examples');
const code = spawnSync('code', ['--version'], { stdio: 'ignore', shell: process.platform === 'win32' });
if (code.status === 0) {
  const kind = web ? ['--extensionDevelopmentKind=web'] : [];
  const opened = run('code', [`--extensionDevelopmentPath=${root}`, ...kind, examples], { shell: process.platform === 'win32' });
  process.exit(opened.status ?? 1);
}

const port = process.env.IQM_START_PORT;

/** How to get the whole extension (diagnostics, compile, the editor) where VS Code is missing. */
const GET_VSCODE = [
  'For the whole extension (IQE diagnostics, compile, the preview beside the editor), get VS Code from',
  'https://code.visualstudio.com/ and put `code` on PATH (on macOS: in VS Code, run "Shell Command:',
  'Install \'code\' command in PATH"), then run `npm start` again; or open this folder in VS Code and',
  'press F5 ("Run Extension").',
];

/**
 * No VS Code to run: the examples' models in the preview without it (`iqm-tools view`, which opens
 * the browser), until Ctrl+C. `why` says what is missing.
 */
function viewExamples(why) {
  const models = readdirSync(examples)
    .filter((name) => /\.(iqm|iqe|md3|dpm|glb|gltf)$/i.test(name))
    // The textured, animated tube first: what the page shows on opening.
    .sort((a, b) => Number(b === 'skinned-tube.iqm') - Number(a === 'skinned-tube.iqm') || a.localeCompare(b))
    .map((name) => resolve(examples, name));
  console.log(['', `npm start: ${why}: showing the examples in the model preview without VS Code (iqm-tools view).`, ...GET_VSCODE, ''].join('\n'));
  // Ctrl+C reaches the view server too (the terminal's process group): it stops, and so does this.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => view.kill('SIGTERM'));
  const view = spawn(process.execPath, [resolve('dist', 'cli.js'), 'view', ...(port ? ['--port', port] : []), ...models], { stdio: 'inherit' });
  view.on('exit', (status, signal) => process.exit(status ?? (signal ? 0 : 1)));
}

const harnessDir = resolve('..', 'shared', 'vscode-harness');
const harnessPath = resolve(harnessDir, 'harness.js');
const harness = existsSync(harnessPath) ? createRequire(import.meta.url)(harnessPath) : null;
let harnessProblem = harness ? null : "no desktop VS Code 'code' command on PATH, and no ../shared/vscode-harness to run code-server with";
if (harness) {
  try {
    harness.findInstall();
  } catch (error) {
    harnessProblem = `no desktop 'code' on PATH, and ${error instanceof Error ? error.message : String(error)} (install it with: bash ${resolve(harnessDir, 'setup.sh')})`;
  }
}
if (harnessProblem) viewExamples(harnessProblem);
else await startCodeServer();


/** The harness session as a user's VS Code: the extension installed, pop-up notifications on. */
function startOptions() {
  return {
    installExtensions: [root],
    smokeTestDriver: false,
    workspace: examples,
    copyWorkspace: false, // the real examples/ folder, so that edits stay
    noBrowser: true,
    handleSignals: false,
    outDir: resolve('test-output', 'start'),
    codeServerArgs: port ? ['--bind-addr', `127.0.0.1:${port}`] : [],
    settings: web ? { 'remote.extensionKind': { 'iqm-tools.iqm-tools': ['web'] } } : {},
  };
}

/** code-server with the extension on examples/, through the harness, until Ctrl+C. */
async function startCodeServer() {
  let session;
  try {
    session = await harness.Session.start(startOptions());
  } catch (error) {
    console.error('npm start: could not start code-server:', error instanceof Error ? error.message : error);
    process.exit(1);
  }

  let closing = false;
  async function stop(exitCode) {
    if (closing) return;
    closing = true;
    console.log('\nnpm start: stopping code-server');
    await session.close();
    process.exit(exitCode);
  }
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  session.child.once('exit', (status, signal) => {
    if (closing) return;
    console.error(`npm start: code-server exited (${signal ?? `status ${status}`}); its log is test-output/start/code-server.log`);
    stop(1);
  });

  console.log(
    [
      '',
      `VS Code (code-server) is running with the extension loaded on examples/${web ? ', in the web worker extension host' : ''}. Open in a browser:`,
      '',
      `  ${session.url}`,
      '',
      `It listens on 127.0.0.1 only; from another machine, forward the port: ssh -L ${session.port}:127.0.0.1:${session.port} HOST`,
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );
}
