// A summary of an IQE document in the shape of `iqm-tools info` (CLI.md): its meshes (per `mesh`
// command: vertices defined in the section and triangles its faces make), joints and animations.
import { Cmd } from './commands';
import type { IqeDocument } from './document';
import { joints, sections } from './navigation';

export interface IqeSummary {
  meshes: { name: string; material: string; vertices: number; triangles: number }[];
  joints: { name: string; parent: number }[];
  animations: { name: string; first_frame: number; frames: number; framerate: number; loop: boolean }[];
  frames: number;
}

export function summarizeIqe(doc: IqeDocument): IqeSummary {
  const list = sections(doc);
  const triangles = trianglesPerMesh(doc, list.filter((s) => s.kind === 'mesh').map((s) => [s.line, s.endLine]));
  const meshes: IqeSummary['meshes'] = [];
  const animations: IqeSummary['animations'] = [];
  let frames = 0;
  for (const s of list) {
    if (s.kind === 'mesh') meshes.push({ name: s.name, material: s.material ?? '', vertices: s.vertices ?? 0, triangles: triangles[meshes.length] });
    else if (s.kind === 'animation') {
      animations.push({ name: s.name, first_frame: frames, frames: s.frames ?? 0, framerate: s.framerate ?? 0, loop: s.loop ?? false });
      frames += s.frames ?? 0;
    }
  }
  return { meshes, joints: joints(doc).map((j) => ({ name: j.name, parent: j.parent })), animations, frames };
}

/** Triangles made by the faces (a face of n indices makes n - 2) within each line range. */
function trianglesPerMesh(doc: IqeDocument, ranges: number[][]): number[] {
  const counts = ranges.map(() => 0);
  let r = 0;
  for (const chunk of doc.parsedChunks) {
    if (chunk.summary.faceLines === 0) continue;
    for (let i = 0; i < chunk.lineCount; i++) {
      const k = chunk.kind[i];
      if (k !== Cmd.Fa && k !== Cmd.Fm) continue;
      const lineNumber = chunk.firstLine + i;
      while (r < ranges.length && lineNumber > ranges[r][1]) r++;
      if (r >= ranges.length) return counts;
      if (lineNumber < ranges[r][0]) continue;
      counts[r] += Math.max(0, chunk.valueStart[i + 1] - chunk.valueStart[i] - 2);
    }
  }
  return counts;
}
