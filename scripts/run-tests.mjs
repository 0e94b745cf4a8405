// `npm test`: bundles the test files (esbuild.mjs --tests) and runs them with node's built-in
// test runner, so its summary (tests / pass / fail / skipped) is the last thing printed.
// Extra arguments select test files by substring: `npm test -- lsp parser`.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync, statSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';

const filters = process.argv.slice(2);

// One run at a time in a checkout: a second run would delete and rebuild out/test under the
// first one's feet (its test processes then fail or hang). The lock names the running process.
const LOCK = 'out/.test-run.lock';
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
mkdirSync('out', { recursive: true });
if (existsSync(LOCK)) {
  const pid = Number(readFileSync(LOCK, 'utf8'));
  if (pid > 0 && pid !== process.pid && running(pid)) {
    console.error(`npm test: another run (process ${pid}) is using out/test; wait for it to finish`);
    process.exit(1);
  }
}
writeFileSync(LOCK, String(process.pid));
process.on('exit', () => rmSync(LOCK, { force: true }));

rmSync('out/test', { recursive: true, force: true });
const build = spawnSync(process.execPath, ['esbuild.mjs', '--tests'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

function findTests(dir) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.js')) found.push(path);
  }
  return found;
}

const files = findTests('out/test').filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

// A watchdog on node's runner, which starts a process per test file: one that, with every process
// under it (a browser test's Chromium), uses no CPU for HUNG_SECONDS is hung and is killed (the
// runner then fails its file), and its file is run once more, alone, at the end. Seen once: a test
// file's process deadlocked in V8 at its start (every thread waiting on a futex, 0.2 s of CPU in
// 17 minutes); CI would have waited for its time limit. Linux only (/proc); elsewhere no watchdog.
const HUNG_SECONDS = Number(process.env.IQM_TEST_HUNG_SECONDS ?? 180);
const runner = spawn(process.execPath, ['--enable-source-maps', '--test', '--test-reporter=spec', ...files], { stdio: ['inherit', 'pipe', 'inherit'] });
let output = '';
runner.stdout.on('data', (data) => {
  process.stdout.write(data);
  output = (output + data.toString('utf8')).slice(-20000);
});
const killed = [];
const progress = new Map();
const watchdog = existsSync('/proc/self/stat') ? setInterval(() => checkHung(), 10_000) : null;
const status = await new Promise((done) => runner.on('exit', (code) => done(code ?? 1)));
if (watchdog) clearInterval(watchdog);
if (killed.length === 0) process.exit(status);
// The runner failed the hung files (and perhaps others): the run passes only when the failures
// are exactly those files and each passes when run again.
const failed = Number(/ℹ fail (\d+)/.exec(output)?.[1] ?? NaN);
console.log(`\nnpm test: ${killed.length} test file(s) hung with no CPU use for ${HUNG_SECONDS} s and were killed: ${killed.join(', ')}; running them again, alone`);
let retried = true;
for (const file of killed) {
  const again = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-reporter=spec', file], { stdio: 'inherit' });
  if (again.status !== 0) retried = false;
}
if (retried && failed === killed.length) {
  console.log(`npm test: passed (${killed.length} hung file(s) passed when run again; every other file passed)`);
  process.exit(0);
}
process.exit(1);

/** Kills a test file's process whose tree used no CPU for HUNG_SECONDS. */
function checkHung() {
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), { parent: Number(fields[1]), cpu: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // Gone meanwhile.
    }
  }
  const treeCpu = (pid) => {
    let cpu = table.get(pid)?.cpu ?? 0;
    for (const [child, entry] of table) if (entry.parent === pid) cpu += treeCpu(child);
    return cpu;
  };
  const now = Date.now();
  for (const [pid, entry] of table) {
    if (entry.parent !== runner.pid) continue;
    let file;
    try {
      file = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').find((a) => a.endsWith('.test.js'));
    } catch {
      continue;
    }
    if (!file) continue;
    const cpu = treeCpu(pid);
    const seen = progress.get(pid);
    if (!seen || seen.cpu !== cpu) progress.set(pid, { cpu, since: now });
    else if (now - seen.since > HUNG_SECONDS * 1000) {
      killed.push(file);
      progress.delete(pid);
      console.log(describeHung(pid, file));
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Ended meanwhile.
      }
    }
  }
}

/**
 * What a hung test process is waiting on, for whoever reads the log (it has hung only in CI, and
 * never when run again): each thread's state and kernel wait channel, and its open descriptors.
 */
function describeHung(pid, file) {
  const read = (path) => {
    try {
      return readFileSync(path, 'utf8').trim();
    } catch {
      return '?';
    }
  };
  const lines = [`npm test: ${file} (process ${pid}) used no CPU for ${HUNG_SECONDS} s; its threads (name, state, wait channel):`];
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    // Gone meanwhile.
  }
  for (const tid of tasks) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    lines.push(`  ${tid} ${read(`/proc/${pid}/task/${tid}/comm`)} ${state} ${read(`/proc/${pid}/task/${tid}/wchan`)}`);
  }
  let fds = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`).map((fd) => {
      try {
        return `${fd}->${readlinkSync(`/proc/${pid}/fd/${fd}`)}`;
      } catch {
        return `${fd}->?`;
      }
    });
  } catch {
    // Gone meanwhile.
  }
  lines.push(`  open descriptors: ${fds.join(' ')}`);
  return lines.join('\n');
}
