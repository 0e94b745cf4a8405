// The WebGL2 renderer. Uploads a model's buffers once (ModelGpu); per frame only the joint texture
// (or the MD3 frame pair's attribute offsets and blend factor) changes. Keeps a small state cache so
// per-frame code makes no redundant program switches and allocates nothing.

import type { ModelLayout, MeshLayout, TextureLayout } from './layout';
import { wireframeIndices } from './layout';
import { checkerPixels, floatTexture, GlError, imageTexture, linkProgram, staticBuffer, uniforms } from './gl';
import {
  ATTRIB,
  CAPTURE_FRAGMENT_SOURCE,
  FRAGMENT_SOURCE,
  fragmentSource,
  LINE_FRAGMENT_SOURCE,
  LINE_VERTEX_SOURCE,
  vertexSource,
  type VertexVariant,
} from './shaders';

const MESH_UNIFORMS = [
  'uViewProj', 'uModel', 'uJoints', 'uInfluences', 'uSelectedJoint', 'uNormalLength', 'uBlend',
  'uTexture', 'uColorMode', 'uColor', 'uLightDir', 'uAlphaTest', 'uHighlightUnweighted', 'uVertexColors', 'uLit', 'uBlendMode',
] as const;
type MeshUniforms = Record<(typeof MESH_UNIFORMS)[number], WebGLUniformLocation | null>;

interface Program {
  program: WebGLProgram;
  u: MeshUniforms;
}

export interface MaterialGpu {
  texture: WebGLTexture | null;
  twoSided: boolean;
  /** Alpha threshold, or -1 for none. */
  alphaTest: number;
  /** Q3 shader blending of the image (drawn after the opaque meshes, without depth writes). */
  blend?: 'add' | 'blend' | 'filter' | null;
}

interface MeshGpu {
  layout: MeshLayout;
  vao: WebGLVertexArrayObject;
  /** Instanced VAO for the normals overlay (built on demand). */
  normalsVao: WebGLVertexArrayObject | null;
  index: WebGLBuffer;
  wire: WebGLBuffer | null;
  wireCount: number;
  buffers: WebGLBuffer[];
  /** morph: the buffers holding every frame. */
  morphPos: WebGLBuffer | null;
  morphNrm: WebGLBuffer | null;
  material: MaterialGpu;
  visible: boolean;
}

/** Everything the renderer needs per frame; owned by the caller and reused. */
export interface FrameOptions {
  viewProj: Float32Array;
  lightDir: Float32Array;
  cull: boolean;
  flipWinding: boolean;
  textured: boolean;
  wireframe: boolean;
  normals: boolean;
  normalLength: number;
  weights: boolean;
  selectedJoint: number;
  highlightUnweighted: boolean;
  /** Multiply by the vertex colours where a mesh has them. */
  vertexColors: boolean;
  /** Diffuse lighting from lightDir; false: unlit (full brightness). */
  lit: boolean;
  clearColor: Float32Array;
}

/** GPU resources of one model (a player set has three). */
export class ModelGpu {
  readonly meshes: MeshGpu[] = [];
  jointTexture: WebGLTexture | null = null;
  influenceTexture: WebGLTexture | null = null;
  readonly modelMatrix = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  /** MD3 frame pair and blend. */
  morphA = 0;
  morphB = 0;
  morphT = 0;
  private lastMorphA = -1;
  private lastMorphB = -1;
  /** How many meshes draw with each texture, and the texture made for each decoded image (textureFor). */
  private readonly textureUses = new Map<WebGLTexture, number>();
  private readonly textureOfSource = new Map<object, WebGLTexture>();
  /** Front faces of the file: clockwise (IQM, MD3) or counter-clockwise (DPM). */
  frontCW: boolean;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    readonly layout: ModelLayout,
    readonly joints: TextureLayout | null,
    winding: 'cw' | 'ccw',
  ) {
    this.frontCW = winding === 'cw';
    if (joints) this.jointTexture = floatTexture(gl, joints.width, joints.height, joints.data);
    if (layout.influences) this.influenceTexture = floatTexture(gl, layout.influences.width, layout.influences.height, layout.influences.data);
    for (const mesh of layout.meshes) this.meshes.push(this.uploadMesh(mesh));
  }

  /** The MD3 frame pair and blend to draw (a scene's morphFrames(): the opened model's, an assembled player part's). Every frame; allocates nothing. */
  setFrames(f: { readonly a: number; readonly b: number; readonly t: number }): void {
    this.morphA = f.a;
    this.morphB = f.b;
    this.morphT = f.t;
  }

  private uploadMesh(m: MeshLayout): MeshGpu {
    const gl = this.gl;
    const vao = gl.createVertexArray();
    if (!vao) throw new GlError('could not create a vertex array');
    gl.bindVertexArray(vao);
    const buffers: WebGLBuffer[] = [];
    const attrib = (loc: number, data: ArrayBufferView, size: number, type: number, integer = false) => {
      const b = staticBuffer(gl, gl.ARRAY_BUFFER, data);
      buffers.push(b);
      gl.enableVertexAttribArray(loc);
      if (integer) gl.vertexAttribIPointer(loc, size, type, 0, 0);
      else gl.vertexAttribPointer(loc, size, type, false, 0, 0);
      return b;
    };
    let morphPos: WebGLBuffer | null = null;
    let morphNrm: WebGLBuffer | null = null;
    attrib(ATTRIB.texcoord, m.texcoord, 2, gl.FLOAT);
    if (m.kind === 'dpm' && m.dpmRange) {
      attrib(ATTRIB.range, m.dpmRange, 2, gl.UNSIGNED_INT, true);
    } else if (m.kind === 'morph' && m.morphPositions && m.morphNormals) {
      morphPos = attrib(ATTRIB.position, m.morphPositions, 3, gl.FLOAT);
      gl.enableVertexAttribArray(ATTRIB.positionB);
      gl.vertexAttribPointer(ATTRIB.positionB, 3, gl.FLOAT, false, 0, 0);
      morphNrm = attrib(ATTRIB.normal, m.morphNormals, 3, gl.FLOAT);
      gl.enableVertexAttribArray(ATTRIB.normalB);
      gl.vertexAttribPointer(ATTRIB.normalB, 3, gl.FLOAT, false, 0, 0);
    } else {
      attrib(ATTRIB.position, m.position, 3, gl.FLOAT);
      attrib(ATTRIB.normal, m.normal, 3, gl.FLOAT);
      if (m.kind === 'linear' && m.joints && m.weights) {
        attrib(ATTRIB.joints, m.joints, 4, gl.UNSIGNED_SHORT, true);
        attrib(ATTRIB.weights, m.weights, 4, gl.FLOAT);
      }
    }
    // Last, so that the normals overlay's VAO (which does not use it) binds the others in order.
    if (m.color) attrib(ATTRIB.color, m.color, 4, gl.FLOAT);
    const index = staticBuffer(gl, gl.ELEMENT_ARRAY_BUFFER, m.indices);
    gl.bindVertexArray(null);
    return {
      layout: m, vao, normalsVao: null, index, wire: null, wireCount: 0, buffers, morphPos, morphNrm,
      material: { texture: null, twoSided: false, alphaTest: -1 }, visible: true,
    };
  }

  /** The normals overlay's VAO: the same streams, one instance per vertex. */
  normalsVao(mesh: MeshGpu): WebGLVertexArrayObject {
    if (mesh.normalsVao) return mesh.normalsVao;
    const gl = this.gl;
    const m = mesh.layout;
    const vao = gl.createVertexArray();
    if (!vao) throw new GlError('could not create a vertex array');
    gl.bindVertexArray(vao);
    // Re-create light copies of the attribute bindings with divisor 1.
    let k = 0;
    const bind = (loc: number, size: number, type: number, integer = false) => {
      gl.bindBuffer(gl.ARRAY_BUFFER, mesh.buffers[k++]);
      gl.enableVertexAttribArray(loc);
      if (integer) gl.vertexAttribIPointer(loc, size, type, 0, 0);
      else gl.vertexAttribPointer(loc, size, type, false, 0, 0);
      gl.vertexAttribDivisor(loc, 1);
    };
    bind(ATTRIB.texcoord, 2, gl.FLOAT);
    if (m.kind === 'dpm') bind(ATTRIB.range, 2, gl.UNSIGNED_INT, true);
    else if (m.kind === 'morph') {
      bind(ATTRIB.position, 3, gl.FLOAT);
      gl.enableVertexAttribArray(ATTRIB.positionB);
      gl.vertexAttribPointer(ATTRIB.positionB, 3, gl.FLOAT, false, 0, 0);
      gl.vertexAttribDivisor(ATTRIB.positionB, 1);
      bind(ATTRIB.normal, 3, gl.FLOAT);
      gl.enableVertexAttribArray(ATTRIB.normalB);
      gl.vertexAttribPointer(ATTRIB.normalB, 3, gl.FLOAT, false, 0, 0);
      gl.vertexAttribDivisor(ATTRIB.normalB, 1);
    } else {
      bind(ATTRIB.position, 3, gl.FLOAT);
      bind(ATTRIB.normal, 3, gl.FLOAT);
      if (m.kind === 'linear' && m.joints) {
        bind(ATTRIB.joints, 4, gl.UNSIGNED_SHORT, true);
        bind(ATTRIB.weights, 4, gl.FLOAT);
      }
    }
    gl.bindVertexArray(null);
    mesh.normalsVao = vao;
    this.lastMorphA = -1;
    return vao;
  }

  /** Per frame: new joint matrices (already packed into `joints.data`). */
  uploadJoints(): void {
    const j = this.joints;
    if (!j || !this.jointTexture) return;
    const gl = this.gl;
    gl.bindTexture(gl.TEXTURE_2D, this.jointTexture);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, j.width, j.height, gl.RGBA, gl.FLOAT, j.data);
  }

  /** Points a VAO's morph attributes at frames morphA/morphB (when `force`: the frame pair changed). */
  bindMorph(vao: WebGLVertexArrayObject, mesh: MeshGpu, force: boolean): void {
    if (!force || mesh.layout.kind !== 'morph' || !mesh.morphPos || !mesh.morphNrm) return;
    const gl = this.gl;
    const m = mesh.layout;
    const last = Math.max(0, m.morphFrames - 1);
    const a = Math.min(Math.max(this.morphA, 0), last) * m.vertexCount * 12;
    const b = Math.min(Math.max(this.morphB, 0), last) * m.vertexCount * 12;
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, mesh.morphPos);
    gl.vertexAttribPointer(ATTRIB.position, 3, gl.FLOAT, false, 0, a);
    gl.vertexAttribPointer(ATTRIB.positionB, 3, gl.FLOAT, false, 0, b);
    gl.bindBuffer(gl.ARRAY_BUFFER, mesh.morphNrm);
    gl.vertexAttribPointer(ATTRIB.normal, 3, gl.FLOAT, false, 0, a);
    gl.vertexAttribPointer(ATTRIB.normalB, 3, gl.FLOAT, false, 0, b);
  }

  /** Marks the morph bindings stale (after a frame change, before the first mesh binds it). */
  morphChanged(): boolean {
    return this.layout.kind === 'morph' && (this.morphA !== this.lastMorphA || this.morphB !== this.lastMorphB);
  }

  markMorphBound(): void {
    this.lastMorphA = this.morphA;
    this.lastMorphB = this.morphB;
  }

  wire(mesh: MeshGpu): WebGLBuffer {
    if (mesh.wire) return mesh.wire;
    const lines = wireframeIndices(mesh.layout.indices);
    mesh.wire = staticBuffer(this.gl, this.gl.ELEMENT_ARRAY_BUFFER, lines);
    mesh.wireCount = lines.length;
    return mesh.wire;
  }

  /**
   * The texture of a decoded image for this model's meshes, made by `make` the first time: meshes
   * that draw the same image share one texture (a skin on five surfaces was five copies on the GPU).
   */
  textureFor(source: object, make: () => WebGLTexture): WebGLTexture {
    let texture = this.textureOfSource.get(source);
    if (!texture) {
      texture = make();
      this.textureOfSource.set(source, texture);
    }
    return texture;
  }

  /** Meshes drawn with a texture, and the textures they use (tests). */
  textureStats(): { textured: number; textures: number } {
    return { textured: this.meshes.filter((m) => m.material.texture).length, textures: this.textureUses.size };
  }

  /** Sets a mesh's material; a texture no mesh draws any more is deleted. */
  setMaterial(meshIndex: number, material: MaterialGpu): void {
    const mesh = this.meshes[meshIndex];
    if (!mesh) return;
    const old = mesh.material.texture;
    if (material.texture) this.textureUses.set(material.texture, (this.textureUses.get(material.texture) ?? 0) + 1);
    mesh.material = material;
    if (old) this.releaseTexture(old);
  }

  private releaseTexture(texture: WebGLTexture): void {
    const uses = (this.textureUses.get(texture) ?? 1) - 1;
    if (uses > 0) {
      this.textureUses.set(texture, uses);
      return;
    }
    this.textureUses.delete(texture);
    for (const [source, t] of this.textureOfSource) if (t === texture) this.textureOfSource.delete(source);
    this.gl.deleteTexture(texture);
  }

  dispose(): void {
    const gl = this.gl;
    for (const m of this.meshes) {
      gl.deleteVertexArray(m.vao);
      if (m.normalsVao) gl.deleteVertexArray(m.normalsVao);
      for (const b of m.buffers) gl.deleteBuffer(b);
      gl.deleteBuffer(m.index);
      if (m.wire) gl.deleteBuffer(m.wire);
    }
    for (const texture of new Set([...this.textureUses.keys(), ...this.textureOfSource.values()])) gl.deleteTexture(texture);
    this.textureUses.clear();
    this.textureOfSource.clear();
    this.meshes.length = 0;
    if (this.jointTexture) gl.deleteTexture(this.jointTexture);
    if (this.influenceTexture) gl.deleteTexture(this.influenceTexture);
  }
}

function variantOf(kind: ModelLayout['kind']): VertexVariant {
  switch (kind) {
    case 'linear':
      return 'SKIN_LINEAR';
    case 'dpm':
      return 'SKIN_DPM';
    case 'morph':
      return 'MORPH';
    case 'static':
      return 'STATIC';
  }
}

/** The CPU rasteriser WebGL2 runs on (SwiftShader, llvmpipe, …), or null on a GPU (probed once on a throw-away canvas). */
function softwareRenderer(): string | null {
  const probe = document.createElement('canvas');
  probe.width = probe.height = 1;
  const gl = probe.getContext('webgl2');
  if (!gl) return null;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  const found = /swiftshader|llvmpipe|softpipe|software/i.exec(name);
  return found === null ? null : found[0].toLowerCase() === 'swiftshader' ? 'SwiftShader' : found[0];
}

/** Overlay line vertices: x y z r g b a. */
export const LINE_STRIDE = 7;

export class Renderer {
  readonly gl: WebGL2RenderingContext;
  private readonly programs = new Map<string, Program>();
  private lineProgram: { program: WebGLProgram; uViewProj: WebGLUniformLocation | null } | null = null;
  private lineVao: WebGLVertexArrayObject | null = null;
  private lineBuffer: WebGLBuffer | null = null;
  private lineCapacity = 0;
  private checker: WebGLTexture | null = null;
  private readonly identityModel = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  private readonly flatColor = new Float32Array([0, 0, 0, 1]);
  private captureBuffer: WebGLBuffer | null = null;
  private captureCapacity = 0;
  private feedback: WebGLTransformFeedback | null = null;

  /** The CPU rasteriser drawing (SwiftShader, llvmpipe), or null on a GPU. */
  readonly software: string | null;

  constructor(readonly canvas: HTMLCanvasElement, preserveDrawingBuffer = true) {
    // Multisampling on real GPUs; not on software rasterisers (SwiftShader, llvmpipe), where it
    // doubles the cost of every frame.
    this.software = softwareRenderer();
    const gl = canvas.getContext('webgl2', { antialias: this.software === null, preserveDrawingBuffer, alpha: false });
    if (!gl) throw new GlError('WebGL2 is not available in this webview (the GPU may be disabled or blocklisted).');
    this.gl = gl;
    this.initShared();
  }

  /** (Re)creates what does not depend on a model; called again after a context restore. */
  initShared(): void {
    const gl = this.gl;
    this.programs.clear();
    const lp = linkProgram(gl, fragmentSource(LINE_VERTEX_SOURCE), fragmentSource(LINE_FRAGMENT_SOURCE));
    this.lineProgram = { program: lp, uViewProj: gl.getUniformLocation(lp, 'uViewProj') };
    this.lineVao = gl.createVertexArray();
    this.lineBuffer = gl.createBuffer();
    this.lineCapacity = 0;
    gl.bindVertexArray(this.lineVao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.lineBuffer);
    gl.enableVertexAttribArray(ATTRIB.position);
    gl.vertexAttribPointer(ATTRIB.position, 3, gl.FLOAT, false, LINE_STRIDE * 4, 0);
    gl.enableVertexAttribArray(ATTRIB.color);
    gl.vertexAttribPointer(ATTRIB.color, 4, gl.FLOAT, false, LINE_STRIDE * 4, 12);
    gl.bindVertexArray(null);
    this.checker = imageTexture(gl, checkerPixels(), true);
    gl.bindTexture(gl.TEXTURE_2D, this.checker);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    this.captureBuffer = null;
    this.captureCapacity = 0;
    this.feedback = null;
  }

  get contextLost(): boolean {
    return this.gl.isContextLost();
  }

  program(kind: ModelLayout['kind'], normals: boolean, capture = false): Program {
    const key = `${kind}/${normals ? 'n' : ''}/${capture ? 'c' : ''}`;
    let p = this.programs.get(key);
    if (!p) {
      const gl = this.gl;
      const program = linkProgram(
        gl,
        vertexSource(variantOf(kind), normals),
        fragmentSource(capture ? CAPTURE_FRAGMENT_SOURCE : FRAGMENT_SOURCE),
        capture ? ['vModelPos'] : undefined,
      );
      p = { program, u: uniforms(gl, program, MESH_UNIFORMS) };
      gl.useProgram(program);
      gl.uniform1i(p.u.uJoints, 0);
      gl.uniform1i(p.u.uInfluences, 1);
      gl.uniform1i(p.u.uTexture, 2);
      this.programs.set(key, p);
    }
    return p;
  }

  /** Compiles the programs a model needs up front (so the first frame does not stall later). */
  prepare(model: ModelGpu): void {
    this.program(model.layout.kind, false);
  }

  /** Creates a texture from decoded pixels or an image element/bitmap. */
  createTexture(source: { width: number; height: number; pixels: Uint8Array } | TexImageSource): WebGLTexture {
    return imageTexture(this.gl, source, true);
  }

  /** Uploads overlay line vertices (LINE_STRIDE floats each); the array is reused by the caller. */
  setLines(data: Float32Array, vertexCount: number): void {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.lineBuffer);
    const floats = vertexCount * LINE_STRIDE;
    if (data.length > this.lineCapacity) {
      gl.bufferData(gl.ARRAY_BUFFER, data.byteLength, gl.DYNAMIC_DRAW);
      this.lineCapacity = data.length;
    }
    if (floats > 0) gl.bufferSubData(gl.ARRAY_BUFFER, 0, data, 0, floats);
  }

  begin(o: FrameOptions): void {
    const gl = this.gl;
    gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
    gl.clearColor(o.clearColor[0], o.clearColor[1], o.clearColor[2], 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
  }

  /** Draws a model's meshes (and its wireframe/normals overlays). */
  drawModel(model: ModelGpu, o: FrameOptions): void {
    const gl = this.gl;
    const kind = model.layout.kind;
    const p = this.program(kind, false);
    gl.useProgram(p.program);
    this.setCommonUniforms(p, model, o);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, model.jointTexture);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, model.influenceTexture);
    gl.frontFace(model.frontCW !== o.flipWinding ? gl.CW : gl.CCW);
    const morphDirty = model.morphChanged();
    gl.uniform1i(p.u.uColorMode, o.weights ? 2 : o.textured ? 0 : 3);
    gl.uniform1i(p.u.uHighlightUnweighted, o.highlightUnweighted ? 1 : 0);
    gl.uniform1i(p.u.uLit, o.lit ? 1 : 0);
    gl.enable(gl.POLYGON_OFFSET_FILL);
    gl.polygonOffset(1, 1);
    // Opaque meshes first, then the blended ones (Q3 blendFunc) over them without writing depth.
    for (let pass = 0; pass < 2; pass++) {
      for (const mesh of model.meshes) {
        if (!mesh.visible || mesh.layout.indices.length === 0) continue;
        const blend = o.textured && !o.weights ? (mesh.material.blend ?? null) : null;
        if ((pass === 1) !== (blend !== null)) continue;
        if (o.cull && !mesh.material.twoSided) gl.enable(gl.CULL_FACE);
        else gl.disable(gl.CULL_FACE);
        gl.activeTexture(gl.TEXTURE2);
        gl.bindTexture(gl.TEXTURE_2D, mesh.material.texture ?? this.checker);
        gl.uniform1f(p.u.uAlphaTest, o.textured ? mesh.material.alphaTest : -1);
        gl.uniform1i(p.u.uVertexColors, o.vertexColors && mesh.layout.color ? 1 : 0);
        gl.uniform1i(p.u.uBlendMode, blend === 'add' ? 1 : blend === 'blend' ? 2 : blend === 'filter' ? 3 : 0);
        if (blend) {
          gl.enable(gl.BLEND);
          gl.depthMask(false);
          if (blend === 'add') gl.blendFunc(gl.ONE, gl.ONE);
          else if (blend === 'blend') gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
          else gl.blendFunc(gl.DST_COLOR, gl.ZERO);
        }
        model.bindMorph(mesh.vao, mesh, morphDirty);
        gl.bindVertexArray(mesh.vao);
        gl.drawElements(gl.TRIANGLES, mesh.layout.indices.length, gl.UNSIGNED_INT, 0);
        if (blend) {
          gl.disable(gl.BLEND);
          gl.depthMask(true);
        }
      }
    }
    gl.uniform1i(p.u.uVertexColors, 0);
    gl.uniform1i(p.u.uBlendMode, 0);
    gl.disable(gl.POLYGON_OFFSET_FILL);
    gl.disable(gl.CULL_FACE);
    if (o.wireframe) {
      gl.uniform1i(p.u.uColorMode, 1);
      // Light lines over textures, dark ones over the grey (untextured) and heat-map shading.
      const light = o.textured && !o.weights;
      this.flatColor[0] = light ? 0.95 : 0.05; this.flatColor[1] = light ? 0.95 : 0.05; this.flatColor[2] = light ? 0.6 : 0.05; this.flatColor[3] = 1;
      gl.uniform4fv(p.u.uColor, this.flatColor);
      for (const mesh of model.meshes) {
        if (!mesh.visible || mesh.layout.indices.length === 0) continue;
        gl.bindVertexArray(mesh.vao);
        const wire = model.wire(mesh);
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, wire);
        gl.drawElements(gl.LINES, mesh.wireCount, gl.UNSIGNED_INT, 0);
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, mesh.index);
      }
    }
    if (o.normals) {
      const np = this.program(kind, true);
      gl.useProgram(np.program);
      this.setCommonUniforms(np, model, o);
      gl.uniform1i(np.u.uColorMode, 1);
      this.flatColor[0] = 0.2; this.flatColor[1] = 0.6; this.flatColor[2] = 1; this.flatColor[3] = 1;
      gl.uniform4fv(np.u.uColor, this.flatColor);
      for (const mesh of model.meshes) {
        if (!mesh.visible) continue;
        const vao = model.normalsVao(mesh);
        model.bindMorph(vao, mesh, true);
        gl.bindVertexArray(vao);
        gl.drawArraysInstanced(gl.LINES, 0, 2, mesh.layout.vertexCount);
      }
      // The main VAOs' morph bindings are intact; the normals VAO is re-bound each time.
    }
    model.markMorphBound();
    gl.bindVertexArray(null);
  }

  private setCommonUniforms(p: Program, model: ModelGpu, o: FrameOptions): void {
    const gl = this.gl;
    gl.uniformMatrix4fv(p.u.uViewProj, false, o.viewProj);
    gl.uniformMatrix4fv(p.u.uModel, false, model.modelMatrix);
    gl.uniform1i(p.u.uSelectedJoint, o.selectedJoint);
    gl.uniform1f(p.u.uNormalLength, o.normalLength);
    gl.uniform1f(p.u.uBlend, model.morphT);
    gl.uniform3fv(p.u.uLightDir, o.lightDir);
  }

  /** Overlay lines and points (already uploaded with setLines). */
  drawLines(viewProj: Float32Array, first: number, count: number, depthTest: boolean, points = false): void {
    if (count <= 0 || !this.lineProgram) return;
    const gl = this.gl;
    gl.useProgram(this.lineProgram.program);
    gl.uniformMatrix4fv(this.lineProgram.uViewProj, false, viewProj);
    gl.bindVertexArray(this.lineVao);
    if (depthTest) gl.enable(gl.DEPTH_TEST);
    else gl.disable(gl.DEPTH_TEST);
    gl.drawArrays(points ? gl.POINTS : gl.LINES, first, count);
    gl.enable(gl.DEPTH_TEST);
    gl.bindVertexArray(null);
  }

  /**
   * GPU-skinned positions of every vertex (file coordinates, mesh order) through transform feedback:
   * the same vertex shader as the visible draw, capturing vModelPos. For tests and verification;
   * not used per frame.
   */
  captureSkinned(model: ModelGpu, out: Float32Array): void {
    const gl = this.gl;
    const total = model.layout.totalVertices;
    if (out.length < total * 3) throw new Error(`capture needs ${total * 3} floats`);
    if (total === 0) return;
    const p = this.program(model.layout.kind, false, true);
    gl.useProgram(p.program);
    gl.uniform1i(p.u.uSelectedJoint, -1);
    gl.uniform1f(p.u.uBlend, model.morphT);
    gl.uniformMatrix4fv(p.u.uModel, false, this.identityModel);
    gl.uniformMatrix4fv(p.u.uViewProj, false, this.identityModel);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, model.jointTexture);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, model.influenceTexture);
    if (!this.captureBuffer || this.captureCapacity < total * 12) {
      if (this.captureBuffer) gl.deleteBuffer(this.captureBuffer);
      this.captureBuffer = gl.createBuffer();
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, this.captureBuffer);
      gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, total * 12, gl.DYNAMIC_READ);
      gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
      this.captureCapacity = total * 12;
    }
    if (!this.feedback) this.feedback = gl.createTransformFeedback();
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, this.feedback);
    let base = 0;
    for (const mesh of model.meshes) {
      const n = mesh.layout.vertexCount;
      if (n > 0) {
        model.bindMorph(mesh.vao, mesh, true);
        gl.bindVertexArray(mesh.vao);
        gl.bindBufferRange(gl.TRANSFORM_FEEDBACK_BUFFER, 0, this.captureBuffer, base * 12, n * 12);
        gl.beginTransformFeedback(gl.POINTS);
        gl.drawArrays(gl.POINTS, 0, n);
        gl.endTransformFeedback();
        gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
      }
      base += n;
    }
    model.markMorphBound();
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, this.captureBuffer);
    gl.getBufferSubData(gl.TRANSFORM_FEEDBACK_BUFFER, 0, out, 0, total * 3);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
  }

  /** Reads the RGBA pixel at (x, y) in drawing-buffer pixels from the bottom-left. */
  readPixel(x: number, y: number, out: Uint8Array): void {
    this.gl.readPixels(x, y, 1, 1, this.gl.RGBA, this.gl.UNSIGNED_BYTE, out);
  }
}
