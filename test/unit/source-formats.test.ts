// The MD5, SMD and OBJ readers (core/md5, core/smd, core/obj) through the compiler's one entry:
// every shared source compiles to what the reference compiler wrote for it (../shared/reference),
// semantically (core/compare), except the reference's own bugs, each listed here as the exact
// difference it makes and shown on a small generated case (docs/SOURCE-FORMATS.md); malformed
// files are errors at their line and column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compile } from '../../core/compile/index';
import { textSource } from '../../core/formats/sources';
import { readMd5Anim } from '../../core/md5/reader';
import { diffModels } from '../../core/compare/diff';
import { readModel } from '../../core/formats/models';
import type { Model } from '../../core/model/model';
import { fileSource } from '../../node/text';
import { companionAnimations, mtlLibraries } from '../../core/formats/companions';
import { detectFormat, FORMATS } from '../../core/formats/registry';
import { withTempDir } from '../helpers/temp-dir';
import { compileRequest } from '../../core/host/compileRun';
import { sourceOutcome, sourceRequest } from '../../core/host/sourceCompile';

const CLI = resolve('dist', 'cli.js');
const NO_CLI = existsSync(CLI) ? false : `${CLI} is not built (npm run build)`;

const shared = resolve(process.cwd(), '..', 'shared');
const assets = join(shared, 'assets');

/** Compiles files (a mesh, then animations) from disk; fails the test on errors. */
async function compileFiles(...paths: string[]): Promise<Model> {
  const sources = await Promise.all(paths.map((p) => fileSource(p)));
  const result = compile(sources.map((source) => (typeof source === 'string' ? assert.fail(source) : source)));
  assert.ok(result.bytes, JSON.stringify(result.diagnostics.slice(0, 5)));
  return readModel(result.bytes);
}

/** Compiles texts named by file names; the result as it is. */
function compileTexts(...sources: [string, string][]): ReturnType<typeof compile> {
  return compile(sources.map(([name, text]) => textSource(text, name)));
}

function compiled(...sources: [string, string][]): Model {
  const result = compileTexts(...sources);
  assert.ok(result.bytes, JSON.stringify(result.diagnostics.slice(0, 5)));
  return readModel(result.bytes);
}

function reference(file: string): Model {
  return readModel(new Uint8Array(readFileSync(join(shared, 'reference', file))));
}

/** The one error of a compile: [code, 1-based line, 1-based column]. */
function firstError(...sources: [string, string][]): [string, number, number] {
  const result = compileTexts(...sources);
  assert.equal(result.bytes, undefined, 'no output for a malformed file');
  const error = result.diagnostics.find((d) => d.diagnostic.severity === 'error');
  assert.ok(error, 'an error');
  return [error.diagnostic.code, error.diagnostic.range.line + 1, error.diagnostic.range.column + 1];
}

const skipShared = !existsSync(join(shared, 'reference', 'md5')) ? '../shared/reference is absent' : false;

// ---------------------------------------------------------------------------------------------
// MD5

test('MD5: door1 and rifle_view equal the reference but for the animation name (R1)', { skip: skipShared }, async () => {
  const cases: [string, string, string][] = [
    ['md5/door1.iqm', 'md5/unvanquished/door1_mesh.md5mesh', 'md5/unvanquished/door1_open.md5anim'],
    ['md5/rifle_view.iqm', 'md5/unvanquished/rifle_view.md5mesh', 'md5/unvanquished/rifle_view_idle.md5anim'],
  ];
  for (const [ref, mesh, anim] of cases) {
    const ours = await compileFiles(join(assets, mesh), join(assets, anim));
    const name = anim.slice(anim.lastIndexOf('/') + 1).replace('.md5anim', '');
    assert.deepEqual(
      diffModels(ours, reference(ref)).map((d) => d.message),
      [`animation 0 "${name}": name "${name}" ≠ "assets/${anim.replace('.md5anim', '')}"`],
      ref,
    );
  }
});

test('MD5: Bob equals the reference but for the animation name (R1) and the second guard1_body mesh the reference drops (R2)', { skip: skipShared }, async () => {
  const ours = await compileFiles(join(assets, 'md5/bob/Bob.md5mesh'), join(assets, 'md5/bob/Bob.md5anim'));
  const messages = diffModels(ours, reference('md5/Bob.iqm')).map((d) => d.message);
  assert.deepEqual(messages, [
    'animation 0 "Bob": name "Bob" ≠ "assets/md5/bob/Bob"',
    'mesh 0 "" (material "guard1_body.png"): 734 ≠ 628 triangles',
    'mesh 0 "" (material "guard1_body.png"): 106 triangles of the first file and 0 of the second have no match with the same corner attributes (within 0.0001)',
  ]);
});

const MD5_MESH = `MD5Version 10
commandline ""

numJoints 2
numMeshes 1

joints {
\t"root"\t-1 ( 0 0 0 ) ( 0 0 0 )
\t"arm"\t0 ( 1 0 0 ) ( 0 0 0.7071068 )
}

mesh {
\t// meshes: body
\tshader "skin.tga"
\tnumverts 3
\tvert 0 ( 0 0 ) 0 1
\tvert 1 ( 1 0 ) 1 1
\tvert 2 ( 0 1 ) 2 2
\tnumtris 1
\ttri 0 0 2 1
\tnumweights 4
\tweight 0 0 1 ( 0 0 0 )
\tweight 1 0 1 ( 1 0 0 )
\tweight 2 1 0.5 ( 1 0 0 )
\tweight 3 0 0.5 ( 0 1 0 )
}
`;

test('MD5: vertices are their weights through the model-space joints; base poses become parent-relative', () => {
  const model = compiled(['m.md5mesh', MD5_MESH]);
  assert.deepEqual(model.meshes.map((m) => [m.name, m.material]), [['body', 'skin.tga']]);
  const skeleton = model.skeleton!;
  assert.deepEqual(skeleton.names.map((name, j) => [name, skeleton.parents[j]]), [['root', -1], ['arm', 0]]);
  // arm is at (1 0 0) rotated -90° about Z (w is the negative root): weight 2's (1 0 0) is at (1 -1 0); half of it and half of weight 3's (0 1 0).
  const positions = model.meshes[0].position;
  const found = [];
  for (let v = 0; v < model.meshes[0].vertexCount; v++) found.push([...positions.subarray(3 * v, 3 * v + 3)].map((x) => Math.round(x * 1e5) / 1e5));
  assert.deepEqual(found.sort(), [[0, 0, 0], [0.5, 0, 0], [1, 0, 0]].sort());
  // The arm's base pose relative to the root (identity): its translation stays (1 0 0).
  assert.deepEqual([...skeleton.bindLocal.subarray(10, 13)].map((x) => Math.round(x * 1e5) / 1e5), [1, 0, 0]);
});

test('MD5: malformed files are errors at their line and column', () => {
  const mesh = (edit: (text: string) => string): [string, string] => ['m.md5mesh', edit(MD5_MESH)];
  assert.deepEqual(firstError(mesh((t) => t.replace('MD5Version 10', 'MD5Version 11'))), ['md5-version', 1, 12]);
  assert.deepEqual(firstError(mesh((t) => t.replace('weight 2 1 0.5', 'weight 2 7 0.5'))), ['weight-joint-range', 24, 11]);
  assert.deepEqual(firstError(mesh((t) => t.replace('tri 0 0 2 1', 'tri 0 0 2 3'))), ['face-index-range', 20, 12]);
  assert.deepEqual(firstError(mesh((t) => t.slice(0, t.lastIndexOf('}')))), ['unterminated-block', 12, 6]);
  assert.deepEqual(firstError(mesh((t) => t.replace('vert 2 ( 0 1 ) 2 2', 'vert 2 ( 0 1 ) 3 2'))), ['vert-weight-range', 18, 1]);
  // An unterminated string is the error even after an earlier one (a failed read looks for one in the whole text).
  const lines = MD5_MESH.split('\n').length;
  assert.deepEqual(firstError(mesh((t) => t.replace('MD5Version 10', 'MD5Version 10 )') + '"open\n')), ['unterminated-quote', lines, 1]);
  // A file that ends inside a block: the error is on the line of its last token (comments too).
  const cut = MD5_MESH.indexOf('numverts') + 'numverts'.length;
  assert.deepEqual(firstError(mesh((t) => t.slice(0, cut) + '\n// end\n')), ['md5-syntax', MD5_MESH.slice(0, cut).split('\n').length + 1, 1]);
  const anim = MD5_ANIM.replace('\t0 0 0 0.1\n', '\t0 0 0\n');
  assert.deepEqual(firstError(['m.md5mesh', MD5_MESH], ['walk.md5anim', anim]), ['frame-values', 24, 1]);
  // A count given twice in a mesh would drop the lines read under the first (fuzzing found it).
  assert.deepEqual(firstError(mesh((t) => t.replace('\tnumtris 1', '\tnumverts 3\n\tnumtris 1'))), ['md5-syntax', 19, 2]);
  assert.deepEqual(firstError(mesh((t) => t.replace('\tnumweights 4', '\tnumtris 1\n\tnumweights 4'))), ['md5-syntax', 21, 2]);
  // A count far beyond what the file holds is an error at the mesh (too few lines), not an
  // allocation that throws (1e300 vertices) or takes the memory (1e9): fuzzing found it.
  for (const huge of ['1e300', '1000000000']) {
    assert.deepEqual(firstError(mesh((t) => t.replace('numverts 3', `numverts ${huge}`))), ['md5-count', 12, 6], huge);
    assert.deepEqual(firstError(mesh((t) => t.replace('numweights 4', `numweights ${huge}`))), ['md5-count', 12, 6], huge);
    assert.deepEqual(firstError(mesh((t) => t.replace('numtris 1', `numtris ${huge}`))), ['md5-count', 12, 6], huge);
  }
  // Verts whose runs of weights overlap without end: n verts each of all n weights took time that
  // grows with the square of the file (20,000 of them in 1.4 MB: 12 s). Past 16 times the weights
  // (and 1,000,000 in all) the mesh is an error at its block; below, it is read.
  const shared = (n: number): [string, string] => {
    const verts = Array.from({ length: n }, (_, i) => `\tvert ${i} ( 0 0 ) 0 ${n}`).join('\n');
    const weights = Array.from({ length: n }, (_, i) => `\tweight ${i} 0 ${1 / n} ( ${i} ${i % 7} 0 )`).join('\n');
    return ['m.md5mesh', MD5_MESH.replace(/\tnumverts 3[\s\S]*\tweight 3 0 0.5 \( 0 1 0 \)/, `\tnumverts ${n}\n${verts}\n\tnumtris 1\n\ttri 0 0 1 2\n\tnumweights ${n}\n${weights}`)];
  };
  assert.deepEqual(firstError(shared(2000)), ['vert-weight-range', 12, 6]);
  assert.equal(compiled(shared(900)).meshes.length, 1);
});

test('animation size: frames of joints that the text does not animate are copies, at most 64 times the file (at least 64 MiB): MD5 and SMD', () => {
  // An md5anim of 300 joints no component animates: each frame (`frame i { }`) copies all 300.
  const md5Anim = (joints: number, frames: number): string => [
    'MD5Version 10', 'commandline ""', `numFrames ${frames}`, `numJoints ${joints}`, 'frameRate 24', 'numAnimatedComponents 0',
    'hierarchy {', ...Array.from({ length: joints }, (_, i) => `\t"j${i}" ${i - 1} 0 0`), '}',
    'baseframe {', ...Array.from({ length: joints }, () => '\t( 0 0 0 ) ( 0 0 0 )'), '}',
    ...Array.from({ length: frames }, (_, f) => `frame ${f} {\n}`),
  ].join('\n') + '\n';
  // 3,000 frames: 900,000 poses, 69 MiB from 60 KB (3,000 such frames of 3,000 joints made 1.5 GB).
  assert.deepEqual(firstError(['m.md5mesh', MD5_MESH], ['walk.md5anim', md5Anim(300, 3000)]).slice(0, 2), ['md5-count', 7]);
  assert.equal(readMd5Anim(md5Anim(300, 200), 'walk').model?.frameCount, 200);
  // An SMD of 256 bones whose frames after the first list none: 50,000 `time` lines made 2.1 GB.
  const smdAnim = (frames: number): string => [
    'version 1', 'nodes', ...Array.from({ length: 256 }, (_, i) => `${i} "b${i}" ${i - 1}`), 'end', 'skeleton',
    'time 0', ...Array.from({ length: 256 }, (_, i) => `${i} 0 0 0 0 0 0`), ...Array.from({ length: frames - 1 }, (_, f) => `time ${f + 1}`), 'end',
  ].join('\n') + '\n';
  const [code, line] = firstError(['walk.smd', smdAnim(4000)]);
  // At the `time` line whose frame goes past 64 MiB (frame 3,276: 838,912 poses of 80 bytes).
  assert.deepEqual([code, line], ['smd-values', 2 + 256 + 2 + 1 + 256 + 3276]);
  assert.equal(compiled(['walk.smd', smdAnim(100)]).frameCount, 100);
});

const MD5_ANIM = `MD5Version 10
commandline ""

numFrames 2
numJoints 2
frameRate 24
numAnimatedComponents 4

hierarchy {
\t"root"\t-1 0 0
\t"arm"\t0 39 0
}

bounds {
\t( 0 0 0 ) ( 1 1 1 )
\t( 0 0 0 ) ( 1 1 1 )
}

baseframe {
\t( 0 0 0 ) ( 0 0 0 )
\t( 1 0 0 ) ( 0 0 0 )
}

frame 0 {
\t0 0 0 0.1
}

frame 1 {
\t2 0 0 0.2
}
`;

test('MD5: an md5anim gives one animation named after its file, at its frame rate, with the flagged components animated', () => {
  const model = compiled(['m.md5mesh', MD5_MESH], ['dir/walk.md5anim', MD5_ANIM]);
  assert.deepEqual(model.clips.map((a) => [a.name, a.frameCount, a.fps]), [['walk', 2, 24]]);
});

test('MD5: another version is refused with what is read, and so is a binary FBX', () => {
  const v = compileTexts(['m.md5mesh', MD5_MESH.replace('MD5Version 10', 'MD5Version 6')]);
  assert.match(v.diagnostics[0].diagnostic.message, /only version 10/);
  const fbx = compileTexts(['m.fbx', 'Kaydara FBX Binary  \u0000\u001a\u0000']);
  assert.match(fbx.diagnostics[0].diagnostic.message, /binary FBX is not read/);
});

// ---------------------------------------------------------------------------------------------
// SMD

/** Differences that are only tangents where the reference wrote NaN (B8), and animation names (R1). */
function onlyKnown(messages: string[]): string[] {
  return messages.filter((m) => !/they differ only in tangents$/.test(m) && !/^animation \d+ "[^"]*": name "[^"]*" ≠ "assets\//.test(m));
}

test('SMD: the shared SMDs equal the reference but for NaN tangents (B8) and the animation name (R1)', { skip: skipShared }, async () => {
  const cases: [string, string[]][] = [
    ['smd/triangle.iqm', ['smd/assimp/triangle.smd']],
    ['smd/WusonSMD.iqm', ['smd/assimp/WusonSMD.smd']],
    ['smd/grunt.iqm', ['smd/nexuiz/grunt.smd']],
    ['smd/m16.iqm', ['smd/nuclide/m16.smd', 'smd/nuclide/reload.smd']],
  ];
  for (const [ref, files] of cases) {
    const ours = await compileFiles(...files.map((f) => join(assets, f)));
    assert.deepEqual(onlyKnown(diffModels(ours, reference(ref)).map((d) => d.message)), [], ref);
  }
  assert.deepEqual(diffModels(await compileFiles(join(assets, 'smd/assimp/triangle.smd')), reference('smd/triangle.iqm')), [], 'triangle: no difference at all');
});

const SMD_MESH = `version 1
nodes
0 "root" -1
1 "arm" 0
end
skeleton
time 0
0 0 0 0 0 0 0
1 1 0 0 0 0 1.5707963
end
triangles
skin.tga
0 0 0 0 0 0 1 0 0
0 1 0 0 0 0 1 1 0 2 1 0.25 0 0.25
1 0 1 0 0 0 1 0 1
end
`;

const SMD_ANIM = `version 1
nodes
0 "root" -1
1 "arm" 0
end
skeleton
time 0
0 0 0 0 0 0 0
1 1 0 0 0 0 0
time 2
1 2 0 0 0 0 0
end
`;

test('SMD: a mesh SMD and an animation SMD: corners reversed, v flipped, links with the rest to the parent; frames fill from the first', () => {
  const model = compiled(['m.smd', SMD_MESH], ['walk.smd', SMD_ANIM]);
  assert.deepEqual(model.meshes.map((m) => [m.name, m.material]), [['skin', 'skin.tga']]);
  assert.deepEqual(model.clips.map((c) => [c.name, c.frameCount, c.fps]), [['walk', 3, 0]]);
  const mesh = model.meshes[0];
  // The second vertex: bone 1 at 0.25, the parent 0 at 0.25 + the 0.5 left: 0.75 / 0.25.
  const rows: string[] = [];
  for (let v = 0; v < mesh.vertexCount; v++) {
    rows.push(`${[...mesh.position.subarray(3 * v, 3 * v + 3)]}|${[...mesh.texcoord!.subarray(2 * v, 2 * v + 2)]}|${[...mesh.blendIndices!.subarray(4 * v, 4 * v + 2)]}|${[...mesh.blendWeights!.subarray(4 * v, 4 * v + 2)].map((w) => Math.round(w * 255))}`);
  }
  assert.deepEqual(rows.sort(), ['0,0,0|0,1|0,0|255,0', '1,0,0|1,1|0,1|191,64', '0,1,0|0,0|1,0|255,0'].sort());
  // Written reversed: the file's order 0 1 2 becomes 2 1 0, so the face normal is -Z here.
  const i = mesh.indices;
  const p = (k: number): number[] => [...mesh.position.subarray(3 * i[k], 3 * i[k] + 3)];
  const [a, b, c] = [p(0), p(1), p(2)];
  const nz = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  assert.ok(nz < 0, `reversed winding: ${nz}`);
});

test('SMD: malformed files are errors at their line and column', () => {
  assert.deepEqual(firstError(['m.smd', SMD_MESH.replace('0 1 0 0 0 0 1 1 0 2 1', '0 1 0 0 0 0 1 1 0 2 5')]), ['smd-bone-range', 14, 21]);
  assert.deepEqual(firstError(['m.smd', SMD_MESH.replace('1 0 1 0 0 0 1 0 1', '4 0 1 0 0 0 1 0 1')]), ['smd-bone-range', 15, 1]);
  assert.deepEqual(firstError(['m.smd', SMD_MESH.replace('1 0 1 0 0 0 1 0 1', '1 0 1 0 0 0 1 0')]), ['smd-values', 15, 16]);
  assert.deepEqual(firstError(['m.smd', SMD_MESH.slice(0, SMD_MESH.lastIndexOf('end'))]), ['unterminated-block', 11, 1]);
  assert.deepEqual(firstError(['m.smd', SMD_MESH.replace('version 1', 'version 2')]), ['smd-version', 1, 9]);
  assert.deepEqual(firstError(['m.smd', SMD_MESH.replace('1 1 0 0 0 0 1.5707963', '1 1 0 0 0 0')]), ['smd-values', 9, 12]);
  // A frame number far ahead: every frame skipped would be a copy of the first (a billion never
  // ended: fuzzing found it); an error at the number, also for gaps that add up.
  assert.deepEqual(firstError(['walk.smd', SMD_ANIM.replace('time 2', 'time 1000000000')]), ['smd-values', 10, 6]);
  const gaps = SMD_ANIM.replace('time 2\n1 2 0 0 0 0 0\n', Array.from({ length: 3 }, (_, i) => `time ${(i + 1) * 200}\n1 2 0 0 0 0 0\n`).join(''));
  assert.deepEqual(firstError(['walk.smd', gaps]), ['smd-values', 14, 6]);
  // Skipped frames are copies of the first: as many as 4x the file's size (at least 64 KiB) may hold.
  assert.equal(compiled(['walk.smd', SMD_ANIM.replace('time 2', 'time 400')]).frameCount, 401);
  assert.deepEqual(firstError(['walk.smd', SMD_ANIM.replace('time 2', 'time 500')]), ['smd-values', 10, 6]);
  // A link count beyond the line's words: the first missing word (a count of 2e21 threw a RangeError).
  assert.deepEqual(firstError(['m.smd', SMD_MESH.replace('1 1 0 2 1 0.25 0 0.25', '1 1 0 2e21 1 0.25 0 0.25')]), ['smd-values', 14, 37]);
});

// ---------------------------------------------------------------------------------------------
// OBJ

test('OBJ: spider equals the reference but for NaN tangents (B8); cornell_box too once its `o` names are taken out (R3), but for the repeated white sections the reference drops (R2)', { skip: skipShared }, async () => {
  const spider = await compileFiles(join(assets, 'obj/assimp/spider.obj'));
  assert.deepEqual(onlyKnown(diffModels(spider, reference('obj/spider.iqm')).map((d) => d.message)), [], 'spider');
  const box = readFileSync(join(assets, 'obj/tinyobjloader/cornell_box.obj'), 'utf8');
  const withoutObjects = compiled(['cornell_box.obj', box.replace(/^o .*$/gm, '')]);
  assert.deepEqual(onlyKnown(diffModels(withoutObjects, reference('obj/cornell_box.iqm')).map((d) => d.message)), [
    'mesh 0 "" (material "white"): 30 ≠ 6 triangles',
    'mesh 0 "" (material "white"): 30 triangles of the first file and 6 of the second have no match with the same corner attributes (within 0.0001)',
  ]);
  const named = compiled(['cornell_box.obj', box]);
  assert.deepEqual(named.meshes.map((m) => m.name), ['floor', 'light', 'ceiling', 'back_wall', 'green_wall', 'red_wall', 'short_block', 'tall_block']);
});

const OBJ = `# a concave L and a quad
mtllib m.mtl
v 0 0 0
v 2 0 0
v 2 1 0
v 1 1 0
v 1 2 0
v 0 2 \\
  0
vt 0 0
vn 0 0 1
g part
usemtl Material.001
f 1/1/1 2/1/1 3/1/1 4/1/1 5/1/1 6/1/1
usemtl skin
f -6//1 -5//1 -4//1
`;

test('OBJ: a concave face is ear-clipped (the reference fans it), negative indices, continuations, the .mtl texture for a material that says nothing', () => {
  const result = compile([textSource(OBJ, 'm.obj', undefined, (file) => (file === 'm.mtl' ? 'newmtl Material.001\nmap_Kd .\\\\tex\\\\wood.tga\n' : null))]);
  assert.ok(result.bytes, JSON.stringify(result.diagnostics));
  const model = readModel(result.bytes);
  assert.deepEqual(model.meshes.map((m) => [m.name, m.material, m.triangleCount]), [['part', 'wood.tga', 4], ['part', 'skin', 1]]);
  assert.deepEqual(result.diagnostics.map((d) => d.diagnostic.code), ['obj-concave', 'degenerate-uv']);
  // Ear clipping covers the L exactly: area 3 (a fan from corner 1 would fold over and give more).
  const mesh = model.meshes[0];
  let area = 0;
  for (let t = 0; t < mesh.triangleCount; t++) {
    const p = (k: number): number[] => [...mesh.position.subarray(3 * mesh.indices[3 * t + k], 3 * mesh.indices[3 * t + k] + 3)];
    const [a, b, c] = [p(0), p(1), p(2)];
    // Positions are (z, x, y) of the file's: the file's x, y are our y, z.
    area += Math.abs((b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1])) / 2;
  }
  assert.equal(area, 3);
});

test('OBJ: a face index out of range is an error at its column', () => {
  assert.deepEqual(firstError(['m.obj', OBJ.replace('f -6//1 -5//1 -4//1', 'f -6//1 -5//1 9//1')]), ['face-index-range', 16, 15]);
  assert.deepEqual(firstError(['m.obj', OBJ.replace('f -6//1 -5//1 -4//1', 'f -6//1 -5//2 -4//1')]), ['face-index-range', 16, 9]);
});

test('OBJ: a concave face of more than 1,024 corners is fanned with a warning (ear clipping grows with the square of the corners: fuzzing found a 5,000-corner face taking 0.35 s)', () => {
  const star = (n: number): string => {
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`v ${(i % 2 ? 0.5 : 1) * Math.cos((2 * Math.PI * i) / n)} ${(i % 2 ? 0.5 : 1) * Math.sin((2 * Math.PI * i) / n)} 0`);
    lines.push(`f ${Array.from({ length: n }, (_, i) => i + 1).join(' ')}`);
    return lines.join('\n') + '\n';
  };
  const notes = (n: number): string[] => compileTexts(['star.obj', star(n)]).diagnostics.filter((d) => d.diagnostic.code === 'obj-concave').map((d) => `${d.diagnostic.severity}: ${d.diagnostic.message}`);
  assert.deepEqual(notes(1024), ['information: 1 concave faces are split by ear clipping (the reference compiler fans them, which folds them over)']);
  assert.deepEqual(notes(1026), ['warning: 1 concave faces of more than 1024 corners are fanned, as the reference fans them, and fold over (ear clipping takes time growing with the square of the corners)']);
  assert.equal(readModel(compileTexts(['star.obj', star(1026)]).bytes!).meshes[0].triangleCount, 1024);
});

test('OBJ: a bad number is an error at its own word (not at an earlier word it is part of), after a BOM, a CR line end and a tab', () => {
  // 'e5' is inside '1e5': the column is the second word's, 7.
  assert.deepEqual(firstError(['m.obj', 'v 1e5 e5 0\n']), ['number-invalid', 1, 7]);
  assert.deepEqual(firstError(['m.obj', '\uFEFFv 0 0 0\rv 0\t-. 0\r']), ['number-invalid', 2, 5]);
  assert.deepEqual(firstError(['m.obj', 'v 0 0 0\r\nf 1 1/x 1\r\n']), ['number-invalid', 2, 5]);
  // A continuation joins with a space: the column counts in the joined line.
  assert.deepEqual(firstError(['m.obj', 'v 0 0 0\nf 1 \\\n 1 0\n']), ['number-invalid', 2, 9]);
});

// ---------------------------------------------------------------------------------------------
// The command line, and the files that go with a source

test('CLI: MD5, SMD and OBJ compile to IN.iqm; a malformed one is FILE:LINE:COL: error … [code], exit 1, nothing written; check and info read them', { skip: NO_CLI }, () => {
  return withTempDir('iqm-sources-', (dir) => {
    const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
    writeFileSync(join(dir, 'm.md5mesh'), MD5_MESH);
    writeFileSync(join(dir, 'walk.md5anim'), MD5_ANIM);
    const ok = run('compile', join(dir, 'm.md5mesh'), '--fps', '10', join(dir, 'walk.md5anim'));
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /m\.iqm: 1 meshes, 3 vertices, 1 triangles, 2 joints, 1 animations, 2 frames/);
    assert.deepEqual(readModel(new Uint8Array(readFileSync(join(dir, 'm.iqm')))).clips.map((c) => [c.name, c.fps]), [['walk', 10]]);
    const info = run('info', join(dir, 'm.md5mesh'));
    assert.equal(info.status, 0, info.stderr);
    assert.match(info.stdout, /joints: 2/);
    // An animation alone with -j: its joints are written without a mesh.
    const joints = run('compile', '-j', join(dir, 'walk.md5anim'), '-o', join(dir, 'walk.iqm'));
    assert.equal(joints.status, 0, joints.stderr);
    assert.match(joints.stdout, /0 meshes, 0 vertices, 0 triangles, 2 joints, 1 animations, 2 frames/);
    writeFileSync(join(dir, 'bad.smd'), SMD_MESH.replace('1 0 1 0 0 0 1 0 1', '4 0 1 0 0 0 1 0 1'));
    for (const command of ['compile', 'check']) {
      const bad = run(command, join(dir, 'bad.smd'));
      assert.equal(bad.status, 1, `${command}: ${bad.stderr}`);
      assert.equal(bad.stdout, `${join(dir, 'bad.smd')}:15:1: error: parent bone 4 is not in nodes (0..1) [smd-bone-range]\n`);
    }
    assert.ok(!readdirSync(dir).includes('bad.iqm'), 'nothing written');
    const good = run('check', join(dir, 'm.md5mesh'), join(dir, 'walk.md5anim'));
    assert.equal(good.status, 0, good.stdout);
    // An .obj whose content is an SMD: read as what it is.
    writeFileSync(join(dir, 'lies.obj'), SMD_MESH);
    const lies = run('compile', join(dir, 'lies.obj'));
    assert.equal(lies.status, 0, lies.stderr);
    assert.match(lies.stdout, /lies\.iqm: 1 meshes, 3 vertices, 1 triangles, 2 joints/);
  });
});

test('companions: an .md5mesh takes the .md5anim files beside it whose skeleton is its own, a mesh SMD the animation SMDs; an OBJ names its .mtl', () => {
  const other = MD5_ANIM.replace('"arm"', '"leg"');
  assert.deepEqual(
    companionAnimations({ name: '/d/m.md5mesh', text: MD5_MESH }, [
      { name: '/d/walk.md5anim', text: MD5_ANIM },
      { name: '/d/other.md5anim', text: other },
      { name: '/d/a.md5anim', text: MD5_ANIM },
    ]),
    ['/d/a.md5anim', '/d/walk.md5anim'],
  );
  assert.deepEqual(
    companionAnimations({ name: '/d/m.smd', text: SMD_MESH }, [
      { name: '/d/m.smd', text: SMD_MESH },
      { name: '/d/walk.smd', text: SMD_ANIM },
      { name: '/d/mesh2.smd', text: SMD_MESH },
    ]),
    ['/d/walk.smd'],
  );
  assert.deepEqual(companionAnimations({ name: '/d/walk.smd', text: SMD_ANIM }, [{ name: '/d/m.smd', text: SMD_MESH }]), [], 'an animation has no companions');
  assert.deepEqual(mtlLibraries(OBJ), ['m.mtl']);
});

test('companions and format detection read lines as lines: indented keywords, CRLF, long runs of blank lines', () => {
  // Each line start of a run of blank lines made ^\s* run to the run's end: quadratic (40,000
  // blank lines took 1.5 s per look); the same answers are expected, whatever the run.
  const blanks = (n: number, eol = '\n') => eol.repeat(n);
  const mesh = SMD_MESH.replace('nodes\n', `nodes${blanks(40_000)}`).replace(/\n/g, '\r\n');
  const anim = `${blanks(40_000)}\t${SMD_ANIM.replace('skeleton', '  skeleton')}`;
  assert.deepEqual(companionAnimations({ name: '/d/m.smd', text: mesh }, [{ name: '/d/walk.smd', text: anim }]), ['/d/walk.smd']);
  assert.deepEqual(companionAnimations({ name: '/d/m.md5mesh', text: MD5_MESH.replace('joints {', `${blanks(40_000, '\r')} joints {${blanks(40_000)}`) }, [{ name: '/d/walk.md5anim', text: MD5_ANIM }]), ['/d/walk.md5anim']);
  assert.deepEqual(mtlLibraries(`${blanks(40_000)}  mtllib  a.mtl b.mtl  \r\nmtllib\n${OBJ}`), ['a.mtl', 'b.mtl', 'm.mtl']);
  const head = blanks(8000);
  const ascii = (text: string) => new TextEncoder().encode(text);
  assert.equal(detectFormat(ascii(`${head}MD5Version 10\nnumMeshes 1\n`), 'x.txt'), 'md5mesh');
  assert.equal(detectFormat(ascii(`${head}  ; FBX 7.4.0 project file\n`), 'x.txt'), 'fbx');
});

test('OBJ: vertices without normals beside vertices with them get computed normals, not the reference\'s shifted ones (R5)', () => {
  const text = 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvn 0 0 -1\nf 1//1 2//1 3//1\nf 2 4 3\n';
  const result = compileTexts(['m.obj', text]);
  assert.ok(result.bytes);
  assert.deepEqual(result.diagnostics.map((d) => d.diagnostic.code).filter((c) => c !== 'degenerate-uv'), ['obj-normals-partial']);
  const mesh = readModel(result.bytes).meshes[0];
  // Both faces lie in the file's z = 0 plane: every computed normal is ±(file z), our x (positions are the file's z x y).
  for (let v = 0; v < mesh.vertexCount; v++) {
    const n = [...mesh.normal!.subarray(3 * v, 3 * v + 3)];
    assert.deepEqual(n.map((x) => Math.round(Math.abs(x))), [1, 0, 0], `vertex ${v}: ${n}`);
  }
});

test('preview: a mesh source with its companions is compiled with them (on the host, in the compile worker); an animation SMD alone shows its skeleton', async () => {
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
  // What the preview's panel does: the request of sourceCompile.ts, run as the worker runs it, and its outcome.
  const preview = async (text: string, name: string, animations: { name: string; bytes: Uint8Array }[] = [], resources: { uri: string; bytes: Uint8Array }[] = []) => {
    const format = detectFormat(bytes(text), name);
    assert.equal(FORMATS[format].role, 'source', `${name} is a compile source`);
    const outcome = sourceOutcome(await compileRequest(sourceRequest(name, format, bytes(text), animations, resources, {})), name, format, animations.map((a) => a.name));
    if ('error' in outcome) throw new Error(outcome.error);
    return readModel(outcome.bytes);
  };
  const withAnimation = await preview(SMD_MESH, 'm.smd', [{ name: 'walk.smd', bytes: bytes(SMD_ANIM) }]);
  assert.deepEqual([withAnimation.meshes.length, withAnimation.clips.map((c) => c.name)], [1, ['walk']]);
  const alone = await preview(SMD_ANIM, 'walk.smd');
  assert.deepEqual([alone.meshes.length, alone.skeleton?.names, alone.clips.map((c) => c.frameCount)], [0, ['root', 'arm'], [3]]);
  const obj = await preview(OBJ, 'm.obj', [], [{ uri: 'm.mtl', bytes: bytes('newmtl Material.001\nmap_Kd wood.png\n') }]);
  assert.deepEqual(obj.meshes.map((m) => m.material), ['wood.png', 'skin']);
  await assert.rejects(preview(SMD_MESH.replace('1 0 1 0 0 0 1 0 1', '4 0 1 0 0 0 1 0 1'), 'bad.smd'), /bad\.smd: line 15: parent bone 4 is not in nodes/);
  assert.equal(detectFormat(bytes('# Inter-Quake Export\n'), 'a.iqe'), 'iqe', 'IQE text goes the IQE way');
});
