// What part of the drawn model an issue is about, for the preview to show when the issue is
// clicked: read back from the issue's `where` (the validators' own wording: "joint 4 …",
// "bone 4 …", "mesh 2 "body", vertex 817", "surface 0 "x", triangle 12"). IQM numbers vertices and
// triangles across the file; MD3 and DPM per surface or mesh, so their numbers are offset by the
// earlier meshes' counts (the drawn model lists all meshes' vertices and triangles in file order).

import type { Highlight } from '../model/highlight';
import type { Model } from '../model/model';
import type { ValidationReport } from './report';

const JOINT = /^(?:joint|bone) (\d+)\b/;
const ELEMENT = /^(?:mesh|surface) (\d+)\b.*?, (vertex|triangle) (\d+)\b/;
const GLOBAL_ELEMENT = /\b(vertex|triangle) (\d+)\b/;

/** The joint, vertex or triangle an issue names, as the preview highlights it; null when it names none of them (or one the model lacks). */
export function issueHighlight(where: string, format: ValidationReport['format'], model: Model): Highlight | null {
  const joint = JOINT.exec(where);
  if (joint) {
    const j = Number(joint[1]);
    return model.skeleton && j < model.skeleton.names.length ? { kind: 'joint', joint: j } : null;
  }
  let kind: string, index: number;
  if (format === 'iqm') {
    const m = GLOBAL_ELEMENT.exec(where);
    if (!m) return null;
    [kind, index] = [m[1], Number(m[2])];
  } else {
    const m = ELEMENT.exec(where);
    if (!m) return null;
    const mesh = Number(m[1]);
    if (mesh >= model.meshes.length) return null;
    kind = m[2];
    index = Number(m[3]);
    for (let i = 0; i < mesh; i++) index += kind === 'vertex' ? model.meshes[i].vertexCount : model.meshes[i].triangleCount;
  }
  const total = model.meshes.reduce((n, m) => n + (kind === 'vertex' ? m.vertexCount : m.triangleCount), 0);
  if (index >= total) return null;
  return kind === 'vertex' ? { kind: 'vertices', indices: [index] } : { kind: 'triangles', indices: [index] };
}
