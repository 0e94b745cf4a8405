// A real client: Blender's own glTF importer (Debian's `blender` with python3-numpy, headless)
// imports the export of every shared model, the animation-only IQM with the mesh it borrows, and
// the Quake 3 player folder, with our bone count, animation names and vertex count
// (test/blender/import_report.py prints what it made; one Blender process for all files, its
// start-up being most of the time). Skips, saying so, where `blender` is not installed.
//
// What "ours" is, derived from how Blender's importer builds its objects (Blender 3.4,
// io_import_scene_gltf2): bones: one per joint of the skins (our joints; an unskinned model has no
// armature); vertices: per primitive, the vertices its triangles use (it drops unused ones; it
// merges none by default), which for our files is every vertex of the model (the writer leaves
// none unused), so the model's vertex count; animations: one NLA track per glTF animation on each
// object it moves, named after it, so the set of track names is our animation names; Blender
// renames a repeated name NAME.001, so they must arrive as written: the writer keeps them unique
// (guy.iqm and its guyanim.iqm both have "jump" and "dance": the second pair is "jump (guyanim.iqm)"…).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadGltf, scenePrimitives } from '../helpers/gltf-eval';
import { ASSETS, NO_ASSETS, sharedModels } from '../helpers/model-assets';
import { withTempDir } from '../helpers/temp-dir';

const blender = spawnSync('blender', ['--version'], { encoding: 'utf8' });
const NO_BLENDER = blender.status === 0 ? false : 'blender is not installed (Debian: apt-get install blender python3-numpy); the Blender import test is skipped';

interface Stats {
  meshes: number;
  vertices: number;
  joints: number;
  animations: number;
}

interface Report {
  file: string;
  error?: string;
  bones: number;
  vertices: number;
  animations: string[];
}

test('Blender imports every export with our bones, animation names and vertices', { skip: NO_ASSETS || NO_BLENDER }, () => {
  withTempDir('iqm-blender-', (dir) => {
    // Each input (its arguments to convert) and what convert says it wrote.
    const inputs: string[][] = sharedModels()
      .filter((f) => !/guyanim\.iqm$/.test(f))
      .map((f) => [f]);
    inputs.push([join(ASSETS, 'iqm/raylib_guy/guy.iqm'), join(ASSETS, 'iqm/raylib_guy/guyanim.iqm')], [join(ASSETS, 'md3/oa_soldier')]);
    const exported: { label: string; glb: string; stats: Stats }[] = [];
    const started = Date.now();
    for (const [i, args] of inputs.entries()) {
      const glb = join(dir, `${i}.glb`);
      const run = spawnSync(process.execPath, ['dist/cli.js', 'convert', ...args, '-o', glb, '--json'], { encoding: 'utf8' });
      const label = args.map((a) => a.slice(ASSETS.length + 1)).join(' + ');
      assert.equal(run.status, 0, `${label}: ${run.stderr}`);
      exported.push({ label, glb, stats: (JSON.parse(run.stdout) as { stats: Stats }).stats });
    }
    const exportSeconds = (Date.now() - started) / 1000;
    const imported = Date.now();
    const run = spawnSync('blender', ['-b', '--factory-startup', '--python', 'test/blender/import_report.py', '--', ...exported.map((e) => e.glb)], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const importSeconds = (Date.now() - imported) / 1000;
    const reports = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('REPORT '))
      .map((l) => JSON.parse(l.slice(7)) as Report);
    assert.equal(reports.length, exported.length, `Blender reported ${reports.length} of ${exported.length} files (exit ${run.status}): ${run.stderr.slice(-2000)}`);
    for (const [k, e] of exported.entries()) {
      const r = reports[k];
      assert.equal(r.file, e.glb);
      assert.equal(r.error, undefined, `${e.label}: Blender's import failed: ${r.error}`);
      const gltf = loadGltf(new Uint8Array(readFileSync(e.glb)), () => new Uint8Array(0));
      const used = scenePrimitives(gltf).reduce((n, p) => n + p.used.length, 0);
      const names = (gltf.json.animations ?? []).map((a) => a.name ?? '').sort();
      assert.equal(new Set(names).size, names.length, `${e.label}: animation names are unique`);
      assert.equal(r.bones, e.stats.joints, `${e.label}: bones`);
      assert.equal(r.vertices, used, `${e.label}: Blender's vertices are those the triangles use`);
      assert.equal(r.vertices, e.stats.vertices, `${e.label}: vertices`);
      assert.equal(names.length, e.stats.animations, `${e.label}: animations in the file`);
      assert.deepEqual(r.animations, names, `${e.label}: animations (NLA tracks), none renamed by Blender`);
    }
    console.log(`[blender] ${exported.length} exports (${exportSeconds.toFixed(0)} s) imported by ${blender.stdout.split('\n')[0]} in one process (${importSeconds.toFixed(0)} s)`);
  });
});
