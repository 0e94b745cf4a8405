// `npm start`: builds the extension, writes the generated examples, and opens VS Code on
// examples/ with this folder as the extension under development. Needs the desktop `code`
// command on PATH; where there is none it says so (a code-server route is planned, see README).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const run = (command, args, options = {}) => spawnSync(command, args, { stdio: 'inherit', ...options });

if (run(process.execPath, ['esbuild.mjs']).status !== 0) process.exit(1);
if (run(process.execPath, ['scripts/make-examples.mjs', 'examples']).status !== 0) process.exit(1);

const root = resolve('.');
const code = spawnSync('code', ['--version'], { stdio: 'ignore', shell: process.platform === 'win32' });
if (code.status === 0) {
  const opened = run('code', [`--extensionDevelopmentPath=${root}`, resolve('examples')], { shell: process.platform === 'win32' });
  process.exit(opened.status ?? 1);
}
console.error(
  [
    '',
    'npm start: the extension is built (dist/) and the examples are in examples/,',
    "but there is no desktop VS Code 'code' command on PATH to open them with.",
    'Install VS Code and run `npm start` again, or open this folder in VS Code and press F5',
    '("Run Extension"). Running in a browser through code-server is not wired up yet.',
  ].join('\n'),
);
process.exit(1);
