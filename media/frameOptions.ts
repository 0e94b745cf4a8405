// The renderer's options for a frame: made once per view, then filled every frame from the view
// state and the camera (allocating nothing); the light comes from the camera's side, so that the
// front of whatever is shown is lit; and the background colour the view is cleared to.

import type { ViewState } from '../core/viewState';
import type { FrameOptions } from './renderer/renderer';

/** The background without a colour of the user's (RGBA). */
const DEFAULT_CLEAR: readonly number[] = [0.16, 0.17, 0.19, 1];

export function createFrameOptions(): FrameOptions {
  return {
    viewProj: new Float32Array(16),
    lightDir: new Float32Array([0.35, -0.45, 0.82]),
    cull: true,
    flipWinding: false,
    textured: true,
    wireframe: false,
    normals: false,
    normalLength: 0.1,
    weights: false,
    selectedJoint: -1,
    highlightUnweighted: false,
    vertexColors: true,
    lit: true,
    clearColor: new Float32Array(DEFAULT_CLEAR),
  };
}

/** The frame's options from the view state and the camera (its view-projection, eye and target). */
export function fillFrameOptions(f: FrameOptions, s: ViewState, viewProj: Float32Array, eye: ArrayLike<number>, target: ArrayLike<number>): void {
  f.viewProj.set(viewProj);
  // Light from the camera's side, raised a little: the front of whatever is shown is lit.
  let lx = eye[0] - target[0], ly = eye[1] - target[1], lz = eye[2] - target[2];
  const ll = Math.hypot(lx, ly, lz) || 1;
  lx = lx / ll + 0.2;
  ly /= ll;
  lz = lz / ll + 0.6;
  const ln = Math.hypot(lx, ly, lz) || 1;
  f.lightDir[0] = lx / ln;
  f.lightDir[1] = ly / ln;
  f.lightDir[2] = lz / ln;
  f.cull = s.cull;
  f.flipWinding = s.winding === 'flipped';
  f.textured = s.textures;
  f.wireframe = s.wireframe;
  f.normals = s.normals;
  f.weights = s.weights;
  f.highlightUnweighted = s.weights;
  f.vertexColors = s.colors;
  f.lit = s.lit;
  f.selectedJoint = s.selectedJoint;
}

/** The clear colour from a #rrggbb background, or the default one for '' (the editor theme's). */
export function setBackground(f: FrameOptions, colour: string): void {
  if (!colour) {
    f.clearColor.set(DEFAULT_CLEAR);
    return;
  }
  const n = parseInt(colour.slice(1), 16);
  f.clearColor[0] = ((n >> 16) & 255) / 255;
  f.clearColor[1] = ((n >> 8) & 255) / 255;
  f.clearColor[2] = (n & 255) / 255;
}
