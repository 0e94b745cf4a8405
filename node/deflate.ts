// zlib-format compression (RFC 1950) for the PNGs of a glTF export (core/image/png.ts takes it
// injected): node:zlib, off the calling thread (zlib's thread pool), for the CLI and the desktop
// extension host.
import { deflate } from 'node:zlib';
import type { Deflate } from '../core/image/png';

export const nodeDeflate: Deflate = (data) =>
  new Promise((resolve, reject) => deflate(data, (error, out) => (error ? reject(error) : resolve(new Uint8Array(out.buffer, out.byteOffset, out.byteLength)))));
