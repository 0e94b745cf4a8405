// Several inputs in one compile (IQE-SEMANTICS.md §4.1, §4.9, §4.10): a mesh file and animation
// files, as the reference compiler merges them. Each input gets its own animation options; the
// meshes come from the last input that has any (a later mesh input replaces an earlier one), the
// joints and base poses from the first input that has meshes, and the animations of every input
// are appended in order. Each frame keeps one pose per joint: extra poses are dropped and missing
// ones are the identity (translate 0, rotate (0, 0, 0, 1), scale 1), as in the reference. The
// result is one input for compileInput, with nothing left to select.
import { newArray } from '../pages';
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { type AnimationOptions, applyAnimationOptions, lineNote } from './options';
import type { InputAnimation, SourceModel } from './source';
import { POSE_STRIDE } from '../math/pose';

export interface InputPart {
  input: SourceModel;
  options: AnimationOptions;
}

/** A note about one of the parts (its index in the list). */
export interface PartNote {
  part: number;
  diagnostic: IqeDiagnostic;
}

const IDENTITY_POSE = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1];

export function mergeInputs(parts: readonly InputPart[]): { input: SourceModel; notes: PartNote[] } {
  const notes: PartNote[] = [];
  const selections = parts.map(({ input, options }, part) => {
    const { selection, notes: optionNotes } = applyAnimationOptions(input, options);
    for (const diagnostic of optionNotes) notes.push({ part, diagnostic });
    return selection;
  });
  let meshPart = -1;
  parts.forEach((p, i) => {
    if (p.input.sections.length > 0) meshPart = i;
  });
  const jointPart = parts.findIndex((p) => p.input.sections.length > 0);
  const firstAnimated = parts.findIndex((p) => p.input.animations.length > 0);
  const skeletonPart = jointPart >= 0 ? jointPart : firstAnimated;
  if (meshPart !== jointPart) {
    const message = `the meshes of this input replace those of an earlier input (as in the reference compiler), but the joints stay those of the first input with meshes`;
    notes.push({ part: meshPart, diagnostic: lineNote('warning', 'input-mesh-replaced', message, parts[meshPart].input.sections[0].line) });
  }
  if (firstAnimated >= 0 && jointPart > firstAnimated) {
    const message = 'this input has animations but comes before the mesh input: the reference compiler would write no bounds for them and would take the poses from this file';
    notes.push({ part: firstAnimated, diagnostic: lineNote('warning', 'input-order', message, parts[firstAnimated].input.animations[0].line) });
  }
  const skeleton = skeletonPart >= 0 ? parts[skeletonPart].input.joints : [];
  const jointCount = skeleton.length;

  // Frames: every input's selected frames, in order, each with one pose per joint.
  let frameTotal = 0;
  selections.forEach((list) => list.forEach(({ first, last }) => (frameTotal += Math.max(last - first + 1, 0))));
  // Shared, for the CLI's bounds worker (as input.ts gathers them); all ten values per pose.
  const framePoses = newArray(Float64Array, POSE_STRIDE * jointCount * frameTotal, true);
  const framePoseStart = new Int32Array(frameTotal + 1);
  const animations: InputAnimation[] = [];
  let frame = 0;
  parts.forEach(({ input }, part) => {
    if (input.animations.length > 0 && part !== skeletonPart) {
      const names = (joints: SourceModel['joints']): string => joints.map((j) => `${j.name}\u0000${j.parent}`).join('\u0001');
      if (input.joints.length !== jointCount || (input.joints.length > 0 && names(input.joints) !== names(skeleton))) {
        const message = `this input's joints (${input.joints.length}) are not the skeleton's (${jointCount}, from ${skeletonPart === jointPart ? 'the mesh input' : 'the first animated input'}): poses are matched by position, extra ones dropped and missing ones the identity`;
        notes.push({ part, diagnostic: lineNote('warning', 'input-joints-mismatch', message, input.animations[0].line) });
      }
    }
    input.animations.forEach((animation, a) => {
      const { first, last } = selections[part][a];
      const firstFrame = frame;
      for (let f = first; f <= last; f++) {
        const from = input.framePoseStart[f];
        const count = input.framePoseStart[f + 1] - from;
        const to = frame * jointCount;
        framePoseStart[frame] = to;
        const kept = Math.min(count, jointCount);
        const stride = input.framePoseStride;
        for (let j = 0; j < kept; j++) {
          framePoses.set(input.framePoses.subarray(stride * (from + j), stride * (from + j + 1)), POSE_STRIDE * (to + j));
          if (stride < POSE_STRIDE) framePoses.fill(1, POSE_STRIDE * (to + j) + stride, POSE_STRIDE * (to + j + 1));
        }
        for (let j = kept; j < jointCount; j++) framePoses.set(IDENTITY_POSE, POSE_STRIDE * (to + j));
        frame++;
      }
      animations.push({ ...animation, firstFrame, frameCount: frame - firstFrame });
    });
  });
  framePoseStart[frameTotal] = frameTotal * jointCount;

  const mesh = meshPart >= 0 ? parts[meshPart].input : parts[0].input;
  const joints = skeletonPart >= 0 ? parts[skeletonPart].input : mesh;
  const comment = parts.find((p) => p.input.comment !== null)?.input.comment ?? null;
  return {
    input: {
      ...mesh,
      joints: skeleton,
      basePoses: joints.basePoses,
      basePoseCount: joints.basePoseCount,
      framePoses,
      framePoseStride: POSE_STRIDE,
      frameCount: frameTotal,
      framePoseStart,
      animations,
      comment,
    },
    notes,
  };
}
