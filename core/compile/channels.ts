// Stage: channel quantisation (IQE-SEMANTICS.md §4.11), every step in float32 (Math.fround).
import { POSE_STRIDE } from './pose';

const f32 = Math.fround;

export interface Channels {
  /** Per pose: channel mask, and 10 offsets and 10 scales (float32 values). */
  mask: Uint32Array;
  offset: Float64Array;
  scale: Float64Array;
  channelCount: number;
  /** Quantised values, frame after frame, padded to an even count. */
  data: Uint16Array;
}

/**
 * `frames` are indices into the file's frame list; each frame has `poseCount` poses starting at
 * framePoseStart[frame] in framePoses.
 */
export function quantiseChannels(framePoses: Float64Array, framePoseStart: Int32Array, frames: Int32Array, poseCount: number): Channels {
  const mask = new Uint32Array(poseCount);
  const offset = new Float64Array(10 * poseCount);
  const scale = new Float64Array(10 * poseCount);
  let channelCount = 0;
  if (frames.length > 0) {
    const low = f32(1e16);
    const threshold = f32(1e-10);
    for (let p = 0; p < poseCount; p++) {
      for (let k = 0; k < 10; k++) {
        let min = low, max = -low;
        for (let f = 0; f < frames.length; f++) {
          const v = f32(framePoses[(framePoseStart[frames[f]] + p) * POSE_STRIDE + k]);
          if (v < min) min = v;
          if (v > max) max = v;
        }
        const range = f32(max - min);
        offset[10 * p + k] = min;
        if (range >= threshold) {
          scale[10 * p + k] = f32(range / 65535);
          mask[p] |= 1 << k;
          channelCount++;
        }
      }
    }
  }
  const total = channelCount * frames.length;
  const data = new Uint16Array(total + (total & 1));
  let o = 0;
  for (let f = 0; f < frames.length; f++) {
    const base = framePoseStart[frames[f]];
    for (let p = 0; p < poseCount; p++) {
      const m = mask[p];
      if (m === 0) continue;
      for (let k = 0; k < 10; k++) {
        if (!(m & (1 << k))) continue;
        const v = f32(framePoses[(base + p) * POSE_STRIDE + k]);
        data[o++] = Math.trunc(f32(0.5 + f32(f32(v - offset[10 * p + k]) / scale[10 * p + k])));
      }
    }
  }
  return { mask, offset, scale, channelCount, data };
}
