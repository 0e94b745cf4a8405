// The generated glTF the glTF benchmarks share (compile-gltf, convert-gltf): a skinned tube of
// 100,000 vertices, 100 joints and 2,000 keys per channel at 30 per second
// (test/helpers/gltf-writer.ts), written once to $IQM_BENCH_DATA (default ~/.cache/iqm-tools-bench).
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { makeGltf } from '../../test/helpers/gltf-writer';

const dataDir = process.env.IQM_BENCH_DATA ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'iqm-tools-bench');

/** The generated 100k-vertex, 100-joint, 2,000-frame glTF, made when missing (to a temporary name, then renamed). */
export function bigGltf(): string {
  const path = join(dataDir, 'gltf-v100k-j100-f2000.glb');
  if (existsSync(path)) return path;
  mkdirSync(dataDir, { recursive: true });
  const t = performance.now();
  const fixture = makeGltf({ vertices: 100_000, around: 50, joints: 100, keys: 2000, keyRate: 30, animations: [{ name: 'Wave', interpolation: 'LINEAR' }] });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, fixture.bytes);
  renameSync(temporary, path);
  console.log(`generated ${path}: ${fixture.vertexCount} vertices, ${fixture.triangleCount} triangles, ${fixture.jointNames.length} joints, 2000 keys per channel, in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return path;
}

