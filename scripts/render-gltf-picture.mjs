// The README's glTF export picture: a generated example (skinned-tube.iqm with its checker
// texture, scripts/make-examples.mjs: no third-party content) exported by `iqm-tools convert -o
// .glb`, rendered headless by Blender itself (scripts/blender-render.py: its own glTF importer,
// Cycles on the CPU, denoising off), beside our preview of the same model (`iqm-tools view` in
// headless Chromium, paused at the base pose, grid and overlays off).
//   npm run build && node scripts/render-gltf-picture.mjs
// Writes docs/screenshots/gltf-blender.png and docs/screenshots/gltf-preview.png. Needs blender
// (apt-get install blender python3-numpy) and /usr/bin/chromium.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const WIDTH = 480, HEIGHT = 360, SAMPLES = 24;
const OUT = join('docs', 'screenshots');
const work = mkdtempSync(join(tmpdir(), 'iqm-gltf-picture-'));

function run(command, args) {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
}

try {
  run(process.execPath, ['scripts/make-examples.mjs', work]);
  const model = join(work, 'skinned-tube.iqm');
  const glb = join(work, 'skinned-tube.glb');
  process.stdout.write(run(process.execPath, ['dist/cli.js', 'convert', model, '-o', glb]));
  const started = Date.now();
  const rendered = run('blender', ['-b', '--factory-startup', '--python', 'scripts/blender-render.py', '--', glb, join(process.cwd(), OUT, 'gltf-blender.png'), String(WIDTH), String(HEIGHT), String(SAMPLES)]);
  console.log(rendered.split('\n').find((l) => l.startsWith('RENDERED')) + ` in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  // Our preview of the same model, as `iqm-tools view` draws it.
  const view = spawn(process.execPath, ['dist/cli.js', 'view', '--no-open', model], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    view.stdout.on('data', (c) => {
      out += c;
      const m = /http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\//.exec(out);
      if (m) resolve(m[0]);
    });
    view.on('exit', (code) => reject(new Error(`iqm-tools view exited (${code})`)));
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] });
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH + 260, height: HEIGHT + 200 } });
    await page.goto(url);
    const handle = await page.waitForSelector('#views iframe');
    const frame = await handle.contentFrame();
    await frame.waitForSelector('#viewer[data-state="ready"]', { timeout: 90000 });
    await frame.waitForSelector('#viewer[data-textures="done"]', { timeout: 60000 });
    await frame.evaluate(() => {
      const v = globalThis.iqmPreview;
      v.setPlaying(false);
      v.selectClip(-1);
      v.fitCamera();
      v.changed();
    });
    // Grid and overlays off through the toolbar (as test/browser/harness.ts setToggles does), then framed.
    for (const key of ['grid', 'skeleton', 'tags', 'bounds', 'wireframe', 'normals', 'weights']) {
      const [on, disabled] = await frame.$eval(`button[data-toggle="${key}"]`, (b) => [b.classList.contains('on'), b.disabled]).catch(() => [false, true]);
      if (on && !disabled) await frame.click(`button[data-toggle="${key}"]`);
    }
    await frame.evaluate(() => {
      globalThis.iqmPreview.fitCamera();
      globalThis.iqmPreview.changed();
    });
    await frame.waitForTimeout(1500);
    // The view without the toolbar over it.
    for (const selector of ['.tool-row', '#more']) await frame.$eval(selector, (e) => (e.style.visibility = 'hidden')).catch(() => undefined);
    await frame.waitForTimeout(500);
    await (await frame.$('canvas')).screenshot({ path: join(OUT, 'gltf-preview.png') });
    console.log(`${join(OUT, 'gltf-preview.png')} written`);
  } finally {
    await browser.close();
    view.kill();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
