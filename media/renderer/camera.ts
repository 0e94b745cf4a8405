// Z-up orbit camera. The model's data is never touched: the camera orbits around a target with +Z
// as "up" (FORMAT-PITFALLS §2: rotate the view, never mirror the data). Matrices are column-major
// Float32Arrays for WebGL; every function writes into preallocated arrays.

export interface CameraState {
  yaw: number;
  pitch: number;
  distance: number;
  target: [number, number, number];
}

/** A preset direction to look from: the default 3/4 view, or straight at the front, side or top. */
export type CameraView = 'default' | 'front' | 'side' | 'top';

export class OrbitCamera {
  /** Orthographic projection (the same framing: the view's height at the target's distance). */
  ortho = false;
  yaw = 0;
  pitch = 0.35;
  distance = 5;
  readonly target = new Float64Array(3);
  near = 0.01;
  far = 1000;
  fovY = (45 * Math.PI) / 180;
  readonly view = new Float32Array(16);
  readonly projection = new Float32Array(16);
  readonly viewProj = new Float32Array(16);
  readonly eye = new Float64Array(3);

  /**
   * Frames a bounding box: target at its centre, distance so the sphere around it fits, looking at
   * the model's front from 35° to its right: `front` is the direction the model faces (+Y for IQM's
   * "Y forward", +X for Quake formats).
   */
  fit(min: ArrayLike<number>, max: ArrayLike<number>, front: 'x' | 'y' = 'y', aspect = 1, view: CameraView = 'default'): void {
    const facing = front === 'y' ? Math.PI / 2 : 0;
    // Front looks at the model's face, side from its left (its right hand away), top straight down.
    this.yaw = view === 'front' ? facing : view === 'side' ? facing - Math.PI / 2 : view === 'top' ? facing : facing - (35 * Math.PI) / 180;
    this.pitch = view === 'top' ? 1.55 : view === 'default' ? 0.3 : 0;
    this.frameBox(min, max, aspect, false);
  }

  /**
   * Looks at a box's centre from where the camera points now (a view the user chose), backing
   * off as far as the whole box needs (never nearer than it is).
   */
  bringIntoView(min: ArrayLike<number>, max: ArrayLike<number>, aspect = 1): void {
    this.frameBox(min, max, aspect, true);
  }

  private frameBox(min: ArrayLike<number>, max: ArrayLike<number>, aspect: number, keepFarther: boolean): void {
    for (let i = 0; i < 3; i++) this.target[i] = (min[i] + max[i]) / 2;
    const r = Math.max(1e-3, 0.5 * Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]));
    // The narrower of the vertical and horizontal fields of view decides (tall, narrow panels).
    const half = Math.min(this.fovY / 2, Math.atan(Math.tan(this.fovY / 2) * aspect));
    const fitted = (r / Math.sin(half)) * 1.05;
    this.distance = keepFarther ? Math.max(this.distance, fitted) : fitted;
    this.near = Math.max(r * 0.01, 1e-4);
    this.far = this.distance + r * 20;
  }

  state(): CameraState {
    return { yaw: this.yaw, pitch: this.pitch, distance: this.distance, target: [this.target[0], this.target[1], this.target[2]] };
  }

  restore(s: CameraState, radiusHint: number): void {
    this.yaw = s.yaw;
    this.pitch = s.pitch;
    this.distance = s.distance;
    this.target[0] = s.target[0];
    this.target[1] = s.target[1];
    this.target[2] = s.target[2];
    const r = Math.max(radiusHint, 1e-3);
    this.near = Math.max(Math.min(r * 0.01, this.distance * 0.01), 1e-4);
    this.far = this.distance + r * 20;
  }

  orbit(dx: number, dy: number): void {
    this.yaw -= dx * 0.01;
    this.pitch = Math.max(-1.55, Math.min(1.55, this.pitch + dy * 0.01));
  }

  zoom(factor: number): void {
    this.distance = Math.max(this.near * 2, this.distance * factor);
    this.far = Math.max(this.far, this.distance * 4);
  }

  /** Moves the target in the view plane by pixels (given the viewport height). */
  pan(dx: number, dy: number, viewportHeight: number): void {
    const scale = (2 * this.distance * Math.tan(this.fovY / 2)) / Math.max(1, viewportHeight);
    // Right and up vectors of the view (rows of the view matrix).
    const v = this.view;
    this.target[0] += (-dx * v[0] + dy * v[1]) * scale;
    this.target[1] += (-dx * v[4] + dy * v[5]) * scale;
    this.target[2] += (-dx * v[8] + dy * v[9]) * scale;
  }

  update(aspect: number): void {
    const cp = Math.cos(this.pitch), sp = Math.sin(this.pitch);
    const cy = Math.cos(this.yaw), sy = Math.sin(this.yaw);
    const e = this.eye, t = this.target;
    e[0] = t[0] + this.distance * cp * cy;
    e[1] = t[1] + this.distance * cp * sy;
    e[2] = t[2] + this.distance * sp;
    lookAtZUp(this.view, e, t);
    if (this.ortho) orthographic(this.projection, this.distance * Math.tan(this.fovY / 2), aspect, this.near, this.far);
    else perspective(this.projection, this.fovY, aspect, this.near, this.far);
    multiply4(this.viewProj, this.projection, this.view);
  }
}

/** View matrix looking from eye to target with +Z up. */
export function lookAtZUp(out: Float32Array, eye: ArrayLike<number>, target: ArrayLike<number>): void {
  let fx = target[0] - eye[0], fy = target[1] - eye[1], fz = target[2] - eye[2];
  let l = Math.hypot(fx, fy, fz) || 1;
  fx /= l; fy /= l; fz /= l;
  // side = f × up(0,0,1)
  let sx = fy, sy = -fx, sz = 0;
  l = Math.hypot(sx, sy, sz);
  if (l < 1e-6) {
    sx = 1; sy = 0; sz = 0;
  } else {
    sx /= l; sy /= l; sz /= l;
  }
  // u = s × f
  const ux = sy * fz - sz * fy, uy = sz * fx - sx * fz, uz = sx * fy - sy * fx;
  out[0] = sx; out[4] = sy; out[8] = sz;
  out[1] = ux; out[5] = uy; out[9] = uz;
  out[2] = -fx; out[6] = -fy; out[10] = -fz;
  out[3] = 0; out[7] = 0; out[11] = 0;
  out[12] = -(sx * eye[0] + sy * eye[1] + sz * eye[2]);
  out[13] = -(ux * eye[0] + uy * eye[1] + uz * eye[2]);
  out[14] = fx * eye[0] + fy * eye[1] + fz * eye[2];
  out[15] = 1;
}

export function perspective(out: Float32Array, fovY: number, aspect: number, near: number, far: number): void {
  const f = 1 / Math.tan(fovY / 2);
  out.fill(0);
  out[0] = f / aspect;
  out[5] = f;
  out[10] = (far + near) / (near - far);
  out[11] = -1;
  out[14] = (2 * far * near) / (near - far);
}

/** out = a · b (column-major 4x4); out must not alias a or b. */
/** Orthographic projection, `halfHeight` world units above and below the view's centre. */
export function orthographic(out: Float32Array, halfHeight: number, aspect: number, near: number, far: number): void {
  const halfWidth = halfHeight * aspect;
  out.fill(0);
  out[0] = 1 / halfWidth;
  out[5] = 1 / halfHeight;
  out[10] = -2 / (far - near);
  out[14] = -(far + near) / (far - near);
  out[15] = 1;
}

export function multiply4(out: Float32Array, a: Float32Array, b: Float32Array): void {
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      out[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
    }
  }
}

export function identity4(out: Float32Array): void {
  out.fill(0);
  out[0] = out[5] = out[10] = out[15] = 1;
}

/** Column-major 4x4 from a 3x4 row-major affine matrix at offset o. */
export function from3x4(out: Float32Array, m: ArrayLike<number>, o = 0): void {
  out[0] = m[o]; out[4] = m[o + 1]; out[8] = m[o + 2]; out[12] = m[o + 3];
  out[1] = m[o + 4]; out[5] = m[o + 5]; out[9] = m[o + 6]; out[13] = m[o + 7];
  out[2] = m[o + 8]; out[6] = m[o + 9]; out[10] = m[o + 10]; out[14] = m[o + 11];
  out[3] = 0; out[7] = 0; out[11] = 0; out[15] = 1;
}

/**
 * Projects a point to CSS pixels with a column-major view-projection; writes [x, y, depth] into out
 * and returns false when the point is behind the camera.
 */
export function project(viewProj: Float32Array, x: number, y: number, z: number, width: number, height: number, out: Float64Array): boolean {
  const m = viewProj;
  const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
  const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
  const cz = m[2] * x + m[6] * y + m[10] * z + m[14];
  const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
  if (cw <= 1e-9) return false;
  out[0] = (cx / cw * 0.5 + 0.5) * width;
  out[1] = (1 - (cy / cw * 0.5 + 0.5)) * height;
  out[2] = cz / cw;
  return true;
}
