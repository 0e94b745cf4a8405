// `npm start` without VS Code: a clean copy of this checkout (the files git knows, no dist/, no
// examples/, no ../shared beside it, so no code-server harness), run with a PATH that has no `code`
// and a stand-in browser ($BROWSER, a script that writes down the address it is given). It builds,
// writes the examples and serves them with `iqm-tools view`: the page the browser was sent to
// lists the examples, and its viewer page is served.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { httpGet } from '../helpers/http';
import { dirname, join } from 'node:path';

const REPO = process.cwd();
const git = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8' });
const skip = git.status !== 0 ? 'not a git checkout: no clean copy to make' : !existsSync(join(REPO, 'node_modules')) ? 'no node_modules' : false;

test('npm start without code on PATH (and no harness) serves the examples with iqm-tools view', { skip, timeout: 300000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'iqm-start-'));
  try {
    const clone = join(work, 'iqm-tools');
    for (const file of git.stdout.split('\0').filter(Boolean)) {
      // Deleted and not yet committed; or node_modules (a symbolic link in a worktree, which git lists).
      if (!existsSync(join(REPO, file)) || file === 'node_modules') continue;
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      cpSync(join(REPO, file), join(clone, file));
    }
    symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
    // A PATH with node and nothing else: no `code`, no xdg-open.
    const bin = join(work, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const opened = join(work, 'opened.txt');
    const browser = join(work, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\necho "$1" > '${opened}'\n`);
    chmodSync(browser, 0o755);
    const start = spawn(process.execPath, ['scripts/start.mjs'], { cwd: clone, env: { HOME: process.env.HOME ?? work, PATH: bin, BROWSER: browser }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    start.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    start.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => start.on('exit', (code) => resolve(code)));
    let url = '';
    for (let waited = 0; waited < 240000 && !url; waited += 500) {
      await new Promise((r) => setTimeout(r, 500));
      if (existsSync(opened)) url = readFileSync(opened, 'utf8').trim();
      if (start.exitCode !== null) break;
    }
    try {
      assert.ok(url, `the browser was sent to the page:\n${out}`);
      assert.match(out, /showing the examples in the model preview without VS Code/);
      assert.match(out, /code\.visualstudio\.com/, 'it says how to get VS Code');
      const page = await httpGet(url);
      assert.equal(page.status, 200);
      for (const name of ['skinned-tube.iqm', 'bending-pyramid.md3', 'skinned-column.dpm', 'skinned-tube.iqe']) assert.ok(page.body.includes(name), `${name} is listed`);
      const viewer = await httpGet(`${url}view?file=0`);
      assert.equal(viewer.status, 200);
      assert.match(viewer.body, /<title>skinned-tube\.iqm<\/title>/);
      assert.match(viewer.body, /webview\.js/);
    } finally {
      start.kill('SIGTERM');
    }
    assert.equal(await exited, 0, out);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
