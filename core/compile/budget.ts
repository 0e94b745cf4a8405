// How much animation a text source may make of itself. A source's frames can be made of far less
// text than their poses take: an md5anim joint no component animates, an SMD bone a frame leaves
// out, are copies in every frame. 3,000 joints and 3,000 empty frames (320 KB of MD5) made 9
// million poses, 1.5 GB; ten times as many of each, past the memory of most machines.
import { POSE_STRIDE } from '../math/pose';

/** Frame poses may take this many times the text's size in bytes, or the floor, whichever is more. */
const POSES_TEXT_MULTIPLE = 64;
const POSES_FLOOR_BYTES = 64 * 2 ** 20;

/** The bytes `poses` joint poses take (POSE_STRIDE doubles each). */
function poseBytes(poses: number): number {
  return poses * POSE_STRIDE * 8;
}

/** The bytes of poses a text of `textLength` characters may make. */
function poseLimit(textLength: number): number {
  return Math.max(POSES_TEXT_MULTIPLE * textLength, POSES_FLOOR_BYTES);
}

/** Whether `poses` joint poses fit what a text of `textLength` characters may make. */
export function posesFit(poses: number, textLength: number): boolean {
  return poseBytes(poses) <= poseLimit(textLength);
}

/** The end of the message of a source whose poses do not fit. */
export function posesTooMany(poses: number, textLength: number): string {
  const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return `${poses.toLocaleString('en-US')} joint poses (${mib(poseBytes(poses))}), more than the ${mib(poseLimit(textLength))} a file of this size may make (${POSES_TEXT_MULTIPLE} times its size, at least ${mib(POSES_FLOOR_BYTES)})`;
}
