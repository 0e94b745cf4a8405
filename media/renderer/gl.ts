// Small WebGL2 helpers: compile and link with readable errors, float textures, buffers.

import { ATTRIB } from './shaders';

export class GlError extends Error {}

export function compileShader(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type);
  if (!shader) throw new GlError('could not create a shader (context lost?)');
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
    const log = gl.getShaderInfoLog(shader) ?? '';
    gl.deleteShader(shader);
    throw new GlError(`${type === gl.VERTEX_SHADER ? 'vertex' : 'fragment'} shader: ${log}`);
  }
  return shader;
}

/** Links a program with the shared attribute locations; `feedback` names transform-feedback varyings. */
export function linkProgram(gl: WebGL2RenderingContext, vertex: string, fragment: string, feedback?: string[]): WebGLProgram {
  const program = gl.createProgram();
  if (!program) throw new GlError('could not create a program (context lost?)');
  const vs = compileShader(gl, gl.VERTEX_SHADER, vertex);
  const fs = compileShader(gl, gl.FRAGMENT_SHADER, fragment);
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  gl.bindAttribLocation(program, ATTRIB.position, 'aPosition');
  gl.bindAttribLocation(program, ATTRIB.normal, 'aNormal');
  gl.bindAttribLocation(program, ATTRIB.texcoord, 'aTexcoord');
  gl.bindAttribLocation(program, ATTRIB.joints, 'aJoints');
  gl.bindAttribLocation(program, ATTRIB.weights, 'aWeights');
  gl.bindAttribLocation(program, ATTRIB.range, 'aRange');
  gl.bindAttribLocation(program, ATTRIB.positionB, 'aPositionB');
  gl.bindAttribLocation(program, ATTRIB.normalB, 'aNormalB');
  gl.bindAttribLocation(program, ATTRIB.color, 'aColor');
  if (feedback) gl.transformFeedbackVaryings(program, feedback, gl.SEPARATE_ATTRIBS);
  gl.linkProgram(program);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost()) {
    const log = gl.getProgramInfoLog(program) ?? '';
    gl.deleteProgram(program);
    throw new GlError(`link: ${log}`);
  }
  return program;
}

/** Uniform locations by name (looked up once; per-frame code uses the cached locations). */
export function uniforms<K extends string>(gl: WebGL2RenderingContext, program: WebGLProgram, names: readonly K[]): Record<K, WebGLUniformLocation | null> {
  const out = {} as Record<K, WebGLUniformLocation | null>;
  for (const n of names) out[n] = gl.getUniformLocation(program, n);
  return out;
}

export function staticBuffer(gl: WebGL2RenderingContext, target: number, data: ArrayBufferView): WebGLBuffer {
  const buffer = gl.createBuffer();
  if (!buffer) throw new GlError('could not create a buffer');
  gl.bindBuffer(target, buffer);
  gl.bufferData(target, data, gl.STATIC_DRAW);
  return buffer;
}

/** An RGBA32F texture sampled with texelFetch (NEAREST, no mipmaps). */
export function floatTexture(gl: WebGL2RenderingContext, width: number, height: number, data: Float32Array | null): WebGLTexture {
  const tex = gl.createTexture();
  if (!tex) throw new GlError('could not create a texture');
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, width, height, 0, gl.RGBA, gl.FLOAT, data);
  return tex;
}

/** An RGBA8 texture with mipmaps from pixels or an image, t = 0 at the first row (no flip). */
export function imageTexture(
  gl: WebGL2RenderingContext,
  source: { width: number; height: number; pixels: Uint8Array } | TexImageSource,
  repeat = true,
): WebGLTexture {
  const tex = gl.createTexture();
  if (!tex) throw new GlError('could not create a texture');
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  if ('pixels' in source) {
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, source.width, source.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, source.pixels);
  } else {
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, source);
  }
  gl.generateMipmap(gl.TEXTURE_2D);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  const wrap = repeat ? gl.REPEAT : gl.CLAMP_TO_EDGE;
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, wrap);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, wrap);
  return tex;
}

/** A checkerboard for meshes whose texture was not found. */
export function checkerPixels(size = 64, cells = 8): { width: number; height: number; pixels: Uint8Array } {
  const pixels = new Uint8Array(size * size * 4);
  const cell = size / cells;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const on = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 === 0;
      const o = (y * size + x) * 4;
      pixels[o] = on ? 190 : 110;
      pixels[o + 1] = on ? 190 : 110;
      pixels[o + 2] = on ? 190 : 110;
      pixels[o + 3] = 255;
    }
  }
  return { width: size, height: size, pixels };
}
