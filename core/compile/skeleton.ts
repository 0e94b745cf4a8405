// Stage: joints and inverse bind matrices (IQE-SEMANTICS.md §4.9, with B10: a joint without a
// base pose gets the identity).
import type { SourceModel } from './source';
import { fromTRS, invertRotationScale3x4, mul3x4 } from '../math/mat3x4';
import { POSE_STRIDE } from '../math/pose';

export const IDENTITY_POSE: readonly number[] = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1];

export interface OutputSkeleton {
  names: string[];
  parents: Int32Array;
  /** Base pose of each joint (10 values), the identity where the file has none (B10). */
  poses: Float64Array;
  /** Inverse bind matrix of each joint, 3x4 row-major. */
  inverse: Float64Array;
}

/**
 * A joint's parent as the file stores it (int32): as given, like the reference, except a negative
 * parent below the int32 range, which would wrap to a large positive index (a broken model): it is
 * written as -1, a root, as every reader takes any negative parent.
 */
export function storedParent(parent: number): number {
  return parent < -0x80000000 ? -1 : parent;
}

export function buildSkeleton(input: SourceModel): OutputSkeleton {
  const count = input.joints.length;
  const parents = new Int32Array(count);
  const poses = new Float64Array(POSE_STRIDE * count);
  const inverse = new Float64Array(12 * count);
  const m = new Float64Array(12);
  const tmp = new Float64Array(12);
  for (let j = 0; j < count; j++) {
    const parent = input.joints[j].parent;
    parents[j] = storedParent(parent);
    if (j < input.basePoseCount) poses.set(input.basePoses.subarray(POSE_STRIDE * j, POSE_STRIDE * (j + 1)), POSE_STRIDE * j);
    else poses.set(IDENTITY_POSE, POSE_STRIDE * j);
    fromTRS(m, 0, poses, POSE_STRIDE * j);
    invertRotationScale3x4(inverse, 12 * j, m, 0);
    if (parent >= 0 && parent < j) {
      mul3x4(tmp, 0, inverse, 12 * j, inverse, 12 * parent);
      inverse.set(tmp, 12 * j);
    }
  }
  return { names: input.joints.map((joint) => joint.name), parents, poses, inverse };
}
