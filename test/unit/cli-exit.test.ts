// The command line always ends once its output is written (issue 31): node's shutdown deadlock
// (nodejs/node#54918) left `iqm-tools lint upper.md3 --engine fte` hung after its JSON in 11 of 30
// runs, the main thread waiting at the end for a V8 background compile that waited for it. The
// launcher (cli/launch.ts) runs the CLI in a node with V8's concurrent compiles off
// (node/exitFlags.ts). The race itself is rare and timing-bound; V8's
// --concurrent-recompilation-delay makes every background compile last seconds, so that a process
// that waits for one at its end is seen every time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EXIT_SAFE_V8_FLAGS, missingExitFlags } from '../../node/exitFlags';
import { ASSETS, HAVE_ASSETS } from '../helpers/model-assets';
import { withTempDir } from '../helpers/temp-dir';

const CLI = resolve('dist', 'cli.js');
const NO_CLI = existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the last output (stdout or stderr) to the process's exit, ms. */
  afterOutputMs: number;
  hung: boolean;
}

/** Runs node with `args` in `cwd`; a run still going `watchdogMs` after its start is hung (killed, with its children). */
function runNode(args: string[], cwd: string, watchdogMs: number): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    let stdout = '';
    let stderr = '';
    let lastOutput = performance.now();
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      lastOutput = performance.now();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      lastOutput = performance.now();
    });
    let hung = false;
    const watchdog = setTimeout(() => {
      hung = true;
      // The whole group: the launcher and the node it started.
      if (process.platform === 'win32') child.kill('SIGKILL');
      else process.kill(-(child.pid as number), 'SIGKILL');
    }, watchdogMs);
    child.on('exit', (status, signal) => {
      const exited = performance.now();
      clearTimeout(watchdog);
      child.on('close', () => done({ status, signal, stdout, stderr, afterOutputMs: exited - lastOutput, hung }));
    });
  });
}

/** A 60 x 60 grid with a joint and two frames: enough parsing, checking and compiling for V8 to optimise functions in the background. */
function gridIqe(): string {
  const n = 60;
  const lines = ['# Inter-Quake Export', 'joint root -1', 'pq 0 0 0 0 0 0 1', 'mesh grid', 'material m'];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) lines.push(`vp ${x} ${y} ${((x * y) % 7) / 10}`, `vt ${x / n} ${y / n}`, 'vb 0 1');
  for (let y = 0; y < n - 1; y++) {
    for (let x = 0; x < n - 1; x++) {
      const a = y * n + x;
      lines.push(`fm ${a} ${a + 1} ${a + n}`, `fm ${a + 1} ${a + n + 1} ${a + n}`);
    }
  }
  lines.push('animation go', 'frame', 'pq 0 0 0 0 0 0 1', 'frame', 'pq 0 0 1 0 0 0 1');
  return lines.join('\n') + '\n';
}

/** The commands of the report and their neighbours: [arguments, folder, exit status]. */
function affectedCommands(dir: string): [string[], string, number][] {
  const commands: [string[], string, number][] = [
    [['compile', 'grid.iqe', '-o', 'grid.iqm'], dir, 0],
    [['check', 'grid.iqe', '--json'], dir, 0],
    [['info', 'grid.iqe', '--json'], dir, 0],
    [['lint', 'grid.iqe', '--engine', 'fte', '--json'], dir, 0],
    [['convert', 'grid.iqe', '-o', 'again.iqe'], dir, 0],
  ];
  // The report's own: a Quake 3 player part in its folder (its skins, animation.cfg and textures looked up).
  const player = join(ASSETS, 'md3', 'oa_soldier');
  if (HAVE_ASSETS && existsSync(join(player, 'upper.md3'))) {
    commands.unshift([['lint', 'upper.md3', '--engine', 'fte', '--json'], player, 0], [['info', 'upper.md3', '--json', '--engine', 'fte'], player, 0]);
  }
  return commands;
}

test('the exit-safe V8 flags: those node was not started with', () => {
  assert.deepEqual(missingExitFlags([]), [...EXIT_SAFE_V8_FLAGS]);
  assert.deepEqual(missingExitFlags(['--enable-source-maps', ...EXIT_SAFE_V8_FLAGS]), []);
  assert.deepEqual(missingExitFlags(['--no-concurrent-recompilation']), ['--no-concurrent-sparkplug']);
});

test('iqm-tools does not wait at its end for a V8 background compile: with each one held 6 s, every command exits within 3 s of its output', { skip: NO_CLI }, async () => {
  await withTempDir('iqm-exit-', async (dir) => {
    writeFileSync(join(dir, 'grid.iqe'), gridIqe());
    for (const [args, cwd, status] of affectedCommands(dir)) {
      // Before the fix the process printed its output, then waited for the held compiles (13 s for
      // `compile`): the wait that deadlocks when such a compile needs a garbage collection.
      const r = await runNode(['--concurrent-recompilation-delay=6000', CLI, ...args], cwd, 60_000);
      const what = `iqm-tools ${args.join(' ')}`;
      assert.equal(r.hung, false, `${what}: still running after 60 s`);
      assert.equal(r.status, status, `${what}: ${r.stderr}`);
      assert.ok(r.stdout.length > 0, `${what}: no output`);
      assert.ok(r.afterOutputMs < 3000, `${what}: exited ${r.afterOutputMs.toFixed(0)} ms after its output (a background compile was waited for)`);
    }
  });
});

test('iqm-tools under a watchdog: the affected commands, 40 runs 4 at a time, every one ends with its status', { skip: NO_CLI }, async (t) => {
  await withTempDir('iqm-exit-many-', async (dir) => {
    writeFileSync(join(dir, 'grid.iqe'), gridIqe());
    const commands = affectedCommands(dir);
    const runs = Array.from({ length: 40 }, (_, i) => commands[i % commands.length]);
    let next = 0;
    let slowest = 0;
    const failures: string[] = [];
    const worker = async (): Promise<void> => {
      while (next < runs.length) {
        const [args, cwd, status] = runs[next++];
        // `convert` writes its own file: one per run, so that parallel runs do not share it.
        const own = args[0] === 'convert' ? [...args.slice(0, -1), `again-${next}.iqe`] : args;
        // 60 s: a hung process uses no CPU and never ends; a slow one on a loaded machine still does.
        const r = await runNode([CLI, ...own], cwd, 60_000);
        slowest = Math.max(slowest, r.afterOutputMs);
        if (r.hung) failures.push(`iqm-tools ${own.join(' ')}: hung (killed after 60 s; output: ${JSON.stringify(r.stdout.slice(0, 80))})`);
        else if (r.status !== status) failures.push(`iqm-tools ${own.join(' ')}: exit ${r.status ?? r.signal}: ${r.stderr}`);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    t.diagnostic(`${runs.length} runs; the longest from output to exit: ${slowest.toFixed(0)} ms`);
    assert.deepEqual(failures, []);
  });
});

test('iqm-tools started again with its flags ends as that process ends: exit status, and a signal passed on', { skip: NO_CLI }, async () => {
  await withTempDir('iqm-exit-status-', async (dir) => {
    assert.equal(spawnSync(process.execPath, [CLI, 'info', join(dir, 'missing.iqm')]).status, 2);
    writeFileSync(join(dir, 'bad.iqe'), '# Inter-Quake Export\nmesh m\nvp 0 0 0\nfm 0 1 2\n');
    const check = spawnSync(process.execPath, [CLI, 'check', join(dir, 'bad.iqe')], { encoding: 'utf8' });
    assert.equal(check.status, 1);
    assert.match(check.stdout, /bad\.iqe:4:\d+: error: .*\[face-index-range\]/);
    if (process.platform === 'win32') return;
    // A FIFO nobody writes: `info` waits in its open until SIGTERM ends the launcher, which passes it on.
    assert.equal(spawnSync('mkfifo', [join(dir, 'fifo.iqm')]).status, 0);
    const child = spawn(process.execPath, [CLI, 'info', join(dir, 'fifo.iqm')], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGTERM');
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('exit', (c, s) => r([c, s])));
    assert.deepEqual([code, signal], [null, 'SIGTERM']);
    // The node it started is gone too (pgrep: status 1 when no process has the FIFO's path in its arguments).
    await new Promise((r) => setTimeout(r, 500));
    const left = spawnSync('pgrep', ['-f', join(dir, 'fifo.iqm')], { encoding: 'utf8' });
    assert.equal(left.status, 1, `still running: ${left.stdout}`);
  });
});
