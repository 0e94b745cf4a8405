// `iqm-tools sample FILE --frame F [--json]` (../shared/docs/CLI.md): vertex positions at global
// frame F after skinning (IQM, DPM) or frame selection (MD3), concatenated over meshes in file
// order, in the file's coordinates, plus the joints' world matrices (3x4 row-major). F = -1 is the
// bind pose (frame 0 for MD3 and DPM). This is the CPU reference the GPU renderer is tested against.

import type { Model } from '../core/model/model';
import { createPose, morphVertices, sampleFrames } from '../core/model/sample';
import { skinVertices, totalVertices } from '../core/model/skin';
import { loadModel, parseArgs } from './info';

export interface SampleResult {
  frame: number;
  positions: Float32Array;
  /** 12 per joint; empty for MD3. */
  joints: Float32Array;
  jointCount: number;
  warnings: string[];
}

/** Samples a model at global frame `frame`, or returns an error message. */
export function sampleModel(model: Model, frame: number): SampleResult | string {
  const warnings: string[] = [];
  const positions = new Float32Array(totalVertices(model) * 3);
  if (model.format === 'md3') {
    const f = frame < 0 ? 0 : frame;
    if (f >= Math.max(1, model.frameCount)) return `frame ${frame} is outside 0..${model.frameCount - 1}`;
    morphVertices(model, f, f, 0, positions);
    return { frame, positions, joints: new Float32Array(0), jointCount: 0, warnings };
  }
  const skeletal = model.skeleton !== null || model.animation !== null;
  let f = frame;
  if (model.format === 'dpm' && f < 0) f = 0;
  if (f >= 0 && f >= model.frameCount) {
    return model.frameCount === 0
      ? `frame ${frame}: the file has no frames (use --frame -1 for the bind pose)`
      : `frame ${frame} is outside 0..${model.frameCount - 1}`;
  }
  const pose = createPose(model);
  if (f >= 0 && model.animation) sampleFrames(model, f, f, 0, pose);
  skinVertices(model, pose, positions);
  let unweighted = 0;
  for (const m of model.meshes) {
    if (!m.blendWeights || m.dpm) continue;
    for (let v = 0; v < m.vertexCount; v++) {
      let sum = 0;
      for (let c = 0; c < m.influences; c++) sum += m.blendWeights[v * m.influences + c];
      if (sum === 0) unweighted++;
    }
  }
  if (unweighted) warnings.push(`${unweighted} vertices have all blend weights zero and keep their bind position`);
  return { frame, positions, joints: skeletal ? pose.world.slice() : new Float32Array(0), jointCount: skeletal ? pose.jointCount : 0, warnings };
}

/** The shortest decimal that reads back as the same float32 (keeps the JSON small and exact). */
export function f32(x: number): number {
  if (!Number.isFinite(x)) return 0;
  for (let p = 1; p < 10; p++) {
    const y = Number(x.toPrecision(p));
    if (Math.fround(y) === x) return y;
  }
  return x;
}

/** The order of the sampled vertices: an IQE's `vp` lines, else the file's own vertex order. */
function vertexOrder(model: Model): 'vp' | 'file' {
  return model.format === 'iqe' ? 'vp' : 'file';
}

export async function runSample(args: string[]): Promise<number> {
  const parsed = parseArgs(args, ['--frame']);
  const usage = 'usage: iqm-tools sample FILE --frame F [--json]\n';
  if (parsed.error || parsed.file === undefined) {
    process.stderr.write(`iqm-tools sample: ${parsed.error ?? 'missing FILE'}\n${usage}`);
    return 2;
  }
  const frameText = parsed.options.get('--frame');
  if (frameText === undefined || !/^-?\d+$/.test(frameText) || Number(frameText) < -1) {
    process.stderr.write(`iqm-tools sample: --frame needs an integer ≥ -1\n${usage}`);
    return 2;
  }
  const frame = Number(frameText);
  // An IQE's vertices are its `vp` lines in their order (not the compiled order): vertex k is the k-th vp.
  const loaded = await loadModel(parsed.file, 'vp');
  if (!loaded.ok) {
    process.stderr.write(loaded.message + '\n');
    return 2;
  }
  const result = sampleModel(loaded.model, frame);
  if (typeof result === 'string') {
    process.stderr.write(`${parsed.file}: ${result}\n`);
    return 2;
  }
  const joints: number[][] = [];
  for (let j = 0; j < result.jointCount; j++) joints.push(Array.from(result.joints.subarray(j * 12, j * 12 + 12), f32));
  if (parsed.json) {
    // Built as text piecewise: a large model's positions would make one giant intermediate array.
    const parts: string[] = [`{"frame":${frame},"positions":[`];
    const p = result.positions;
    for (let i = 0; i < p.length; i += 3000) {
      const chunk = Array.from(p.subarray(i, Math.min(p.length, i + 3000)), f32).join(',');
      parts.push(i ? ',' + chunk : chunk);
    }
    parts.push(`],"vertex_order":"${vertexOrder(loaded.model)}","joints":${JSON.stringify(joints)},"warnings":${JSON.stringify([...loaded.warnings, ...result.warnings])}}\n`);
    process.stdout.write(parts.join(''));
  } else {
    const lines = [`${parsed.file}: frame ${frame}, ${result.positions.length / 3} vertices (${vertexOrder(loaded.model)} order), ${result.jointCount} joints`];
    for (const w of [...loaded.warnings, ...result.warnings]) lines.push(`warning: ${w}`);
    for (let i = 0; i < result.positions.length; i += 3) {
      lines.push(`v ${f32(result.positions[i])} ${f32(result.positions[i + 1])} ${f32(result.positions[i + 2])}`);
    }
    for (let j = 0; j < joints.length; j++) lines.push(`joint ${j} ${joints[j].join(' ')}`);
    process.stdout.write(lines.join('\n') + '\n');
  }
  return 0;
}
