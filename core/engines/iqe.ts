// Engine facts of an IQE document, judged as the IQM it compiles to, with each fact at its line:
// `vertexarray` declarations (the compiler's default formats are the ones every IQM engine
// reads, so only declared ones are checked), joints, mesh sections and animations.

import { Cmd, VERTEXARRAY_FORMATS, VERTEXARRAY_TYPES } from '../iqe/commands';
import type { IqeDocument } from '../iqe/document';
import { commentLine, joints, lineText, sections } from '../iqe/navigation';
import { summarizeIqe } from '../iqe/summary';
import { arrayTypeOf, type ArrayFacts, type ModelFacts } from './facts';
import type { IqmFormatName } from './types';
import { quotedName } from '../names';

/** The first declaration of each vertex array type, as the compiler takes it (size clamped to 1..4). */
function declaredArrays(doc: IqeDocument): ArrayFacts[] {
  const out: ArrayFacts[] = [];
  const seen = new Set<number>();
  const comment = commentLine(doc);
  for (const chunk of doc.parsedChunks) {
    if (chunk.summary.structuralLines === 0) continue;
    for (let i = 0; i < chunk.lineCount; i++) {
      if (chunk.kind[i] !== Cmd.Vertexarray) continue;
      const line = chunk.firstLine + i;
      if (comment >= 0 && line > comment) return out;
      const words = lineText(doc, line).trim().split(/\s+/);
      const type = VERTEXARRAY_TYPES.indexOf(words[1]?.toLowerCase() as (typeof VERTEXARRAY_TYPES)[number]);
      const format = VERTEXARRAY_FORMATS.indexOf(words[2]?.toLowerCase() as (typeof VERTEXARRAY_FORMATS)[number]);
      const size = Math.min(4, Math.max(1, Math.trunc(Number(words[3]))));
      if (type < 0 || format < 0 || !Number.isFinite(size) || seen.has(type)) continue;
      seen.add(type);
      const name = type >= 7 ? (words[4] ?? VERTEXARRAY_TYPES[type]) : VERTEXARRAY_TYPES[type];
      out.push({
        index: out.length,
        type: arrayTypeOf(type >= 7 ? 0x10 : type),
        name,
        format: VERTEXARRAY_FORMATS[format] as IqmFormatName,
        size,
        where: { what: `vertexarray ${name}`, line },
      });
    }
  }
  return out;
}

export function factsFromIqe(doc: IqeDocument): ModelFacts {
  const summary = summarizeIqe(doc);
  const list = sections(doc);
  const meshSections = list.filter((s) => s.kind === 'mesh');
  const animSections = list.filter((s) => s.kind === 'animation');
  const js = joints(doc);
  return {
    format: 'iqm',
    origin: 'iqe',
    version: 2,
    arrays: declaredArrays(doc),
    arraysComplete: false,
    meshes: summary.meshes.map((m, i) => ({
      index: i,
      name: m.name,
      material: m.material,
      vertices: m.vertices,
      triangles: m.triangles,
      where: { what: `mesh ${quotedName(m.name)}`, mesh: i, line: meshSections[i]?.line },
    })),
    joints: js.map((j) => ({ index: j.index, name: j.name, parent: j.parent, where: { what: `joint ${j.index} ${quotedName(j.name)}`, joint: j.index, line: j.line } })),
    poses: animSections.length > 0 ? js.length : 0,
    frames: summary.frames,
    animations: animSections.map((a, i) => ({ index: i, name: a.name, frames: a.frames ?? 0, where: { what: `animation ${quotedName(a.name)}`, animation: i, line: a.line } })),
    tags: [],
    maxBlendIndex: -1,
    header: { what: 'file', line: 0 },
  };
}
