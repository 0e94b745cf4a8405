// Generated IQM files for the validator's tests: one clean model (no issue at all) and, per code,
// a change to it that makes exactly that problem. Written with the tests' IQM writer.

import type { IqmDocument } from '../../core/iqm/document';
import { IQM_HEADER as H } from '../../core/iqm/layout';
import { writeIqmDocument } from './iqm-writer';
import type { ValidationReport } from '../../core/validate/report';

const SQRT2 = Math.SQRT2;
const SQRT5 = Math.sqrt(5);

/**
 * A quad (2 triangles, 4 vertices) in one mesh, skinned to 2 joints ("root" and its child "tip",
 * one unit up y), with one 2-frame animation that moves "tip" +1 along x in frame 1: vertices 2
 * and 3 follow it. Bounds, radii and adjacency are exact.
 */
export function cleanIqm(): IqmDocument {
  return {
    version: 2,
    flags: 0,
    vertexCount: 4,
    meshes: [{ name: 'body', material: 'body.tga', firstVertex: 0, vertexCount: 4, firstTriangle: 0, triangleCount: 2 }],
    vertexArrays: [
      { type: 0, name: 'position', flags: 0, format: 7, size: 3, data: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]), offset: 0 },
      { type: 1, name: 'texcoord', flags: 0, format: 7, size: 2, data: new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]), offset: 0 },
      { type: 2, name: 'normal', flags: 0, format: 7, size: 3, data: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]), offset: 0 },
      { type: 3, name: 'tangent', flags: 0, format: 7, size: 4, data: new Float32Array([1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1]), offset: 0 },
      { type: 4, name: 'blendindexes', flags: 0, format: 1, size: 4, data: new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]), offset: 0 },
      { type: 5, name: 'blendweights', flags: 0, format: 1, size: 4, data: new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0]), offset: 0 },
    ],
    // Clockwise as IQM stores them; edge e of a triangle runs from its corner e to corner e + 1.
    triangles: new Uint32Array([0, 1, 2, 0, 2, 3]),
    adjacency: new Uint32Array([0xffffffff, 0xffffffff, 1, 0, 0xffffffff, 0xffffffff]),
    joints: [
      { name: 'root', parent: -1, trs: new Float32Array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]) },
      { name: 'tip', parent: 0, trs: new Float32Array([0, 1, 0, 0, 0, 0, 1, 1, 1, 1]) },
    ],
    poses: [
      { parent: -1, mask: 0, offset: new Float32Array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]), scale: new Float32Array(10) },
      { parent: 0, mask: 1, offset: new Float32Array([0, 1, 0, 0, 0, 0, 1, 1, 1, 1]), scale: new Float32Array([0.001, 0, 0, 0, 0, 0, 0, 0, 0, 0]) },
    ],
    anims: [{ name: 'idle', firstFrame: 0, frameCount: 2, framerate: 10, flags: 1 }],
    frameCount: 2,
    frameChannels: 1,
    frames: new Uint16Array([0, 1000]),
    bounds: new Float32Array([0, 0, 0, 1, 1, 0, SQRT2, SQRT2, 0, 0, 0, 2, 1, 0, SQRT5, SQRT5]),
    comment: 'clean',
    extensions: [],
  };
}

/** An animation-only file (as raylib's guyanim.iqm): the clean model's poses and frames, no meshes or joints. */
export function animationOnlyIqm(): IqmDocument {
  return { ...cleanIqm(), vertexCount: 0, meshes: [], vertexArrays: [], triangles: new Uint32Array(0), adjacency: null, joints: [], bounds: null };
}

/** The header's uint32 field. */
export function headerField(bytes: Uint8Array, field: keyof typeof H): number {
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(H[field], true);
}

/** Writes a uint32 (or int32 when negative) at `at`, little-endian. */
export function poke(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  if (value < 0) v.setInt32(at, value, true);
  else v.setUint32(at, value, true);
  return bytes;
}

/** Sets a header field. */
export function setHeader(bytes: Uint8Array, field: keyof typeof H, value: number): Uint8Array {
  return poke(bytes, H[field], value);
}

/** `bytes` with `data` appended at an offset ≡ `misalign` (mod 4), the header's filesize updated; the new bytes and where `data` is. */
export function appendData(bytes: Uint8Array, data: Uint8Array, misalign = 0): { bytes: Uint8Array; at: number } {
  const at = Math.ceil(bytes.length / 4) * 4 + misalign;
  const out = new Uint8Array(at + data.length);
  out.set(bytes);
  out.set(data, at);
  setHeader(out, 'filesize', out.length);
  return { bytes: out, at };
}

/** The clean model written after `change` (to a fresh copy of it). */
export function iqmWith(change: (doc: IqmDocument) => void, base: () => IqmDocument = cleanIqm): Uint8Array {
  const doc = base();
  change(doc);
  return writeIqmDocument(doc);
}

export const SQRTS = { SQRT2, SQRT5 };

/** Every code a report names: the listed issues and the counted ones. */
export function firedCodes(report: ValidationReport): string[] {
  return [...new Set([...report.issues.map((i) => i.code), ...Object.keys(report.omitted)])].sort();
}

/** An n × n grid of vertices over the unit square (x, y in [0, 1]), two triangles per cell, wound as the clean quad. */
export function unitGrid(n: number): { xy: number[]; triangles: number[] } {
  const xy: number[] = [];
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) xy.push(i / (n - 1), j / (n - 1));
  const triangles: number[] = [];
  for (let j = 0; j + 1 < n; j++) {
    for (let i = 0; i + 1 < n; i++) {
      const a = j * n + i;
      triangles.push(a, a + 1, a + n + 1, a, a + n + 1, a + n);
    }
  }
  return { xy, triangles };
}
