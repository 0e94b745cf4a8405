// Issue 33: what our compile writes never has an error our own validator finds. Every compile
// source of ../shared/assets (IQE, MD5, SMD, OBJ, glTF) is compiled with the CLI, and every model
// (IQM, MD3, DPM) converted to IQE and compiled back, as the compile and convert suites do; each
// IQM written is validated. Files the compile refuses (the deliberately broken assets) write
// nothing and are counted apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { validateModel } from '../../core/validate/index';
import { ASSETS, modelAssets, NO_ASSETS } from '../helpers/model-assets';
import { withTempDir } from '../helpers/temp-dir';

const CLI = 'dist/cli.js';
const SKIP = NO_ASSETS || (existsSync(CLI) ? false : `${CLI} is not built (npm run build)`);

/** The compile sources under ../shared/assets (an .md5anim is compiled with its .md5mesh), relative paths. */
function sourceAssets(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(iqe|md5mesh|smd|obj|gltf|glb)$/i.test(name)) out.push(p.slice(ASSETS.length + 1));
    }
  };
  walk(ASSETS);
  return out.sort();
}

const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

/** The validator's errors on an IQM the compile wrote, as "code: message" lines. */
function errorsOf(file: string): string[] {
  const report = validateModel(new Uint8Array(readFileSync(file)));
  assert.ok(report, `${file} is an IQM the validator reads`);
  return report.issues.filter((i) => i.severity === 'error').map((i) => `${i.code}: ${i.where}: ${i.message}`);
}

test('every IQM the compile writes from the shared sources, and from the models converted to IQE, has no validator error', { skip: SKIP }, (t) => {
  withTempDir('iqm-validate-outputs-', (dir) => {
    const failures: string[] = [];
    let validated = 0;
    const refused: string[] = [];
    const check = (label: string, out: string) => {
      validated++;
      for (const e of errorsOf(out)) failures.push(`${label}: ${e}`);
    };
    sourceAssets().forEach((rel, i) => {
      const out = join(dir, `source-${i}.iqm`);
      const r = run('compile', join(ASSETS, rel), '-o', out);
      if (existsSync(out)) check(rel, out);
      else refused.push(`${rel} (exit ${r.status})`);
    });
    modelAssets().forEach((rel, i) => {
      const iqe = join(dir, `model-${i}-${basename(rel).replace(/\W/g, '_')}.iqe`);
      const out = iqe.replace(/\.iqe$/, '.iqm');
      run('convert', join(ASSETS, rel), '-o', iqe);
      if (!existsSync(iqe)) return void refused.push(`${rel} (not converted)`);
      run('compile', iqe, '-o', out);
      if (existsSync(out)) check(`${rel} converted`, out);
      else refused.push(`${rel} (converted, not compiled)`);
    });
    t.diagnostic(`${validated} IQM outputs validated; not written (the compile refuses them): ${refused.join(', ') || 'none'}`);
    assert.deepEqual(failures, [], `${failures.length} errors in ${validated} outputs`);
    // The shared assets hold a few deliberately broken files; everything else must compile.
    assert.ok(validated >= 30, `only ${validated} outputs validated; refused: ${refused.join(', ')}`);
  });
});
