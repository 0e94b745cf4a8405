// GLSL ES 3.00 sources, bundled as strings (the CSP forbids fetching or eval; none is needed).
// One vertex shader, specialised by a #define per skinning kind (layout.ts):
//   SKIN_LINEAR  4 influences, joint matrices (skin = world · inverse bind) from uJoints
//   SKIN_DPM     every influence from uInfluences, world matrices from uJoints (exact DPM sum)
//   MORPH        MD3: positions/normals of frames a and b, blended by uBlend (uBlendMode is the Q3 shader blending)
//   (none)       static positions
// and optionally NORMALS (instanced lines along each vertex normal). `vModelPos` is the skinned
// position in the file's coordinates: the transform-feedback test captures it and compares it with
// the CPU reference (core/model/sample.ts).

import { INFLUENCES_PER_ROW, JOINTS_PER_ROW, MAX_DPM_INFLUENCES } from './layout';

export const VERTEX_SOURCE = `
precision highp float;
precision highp int;
precision highp sampler2D;

uniform mat4 uViewProj;
uniform mat4 uModel;
uniform sampler2D uJoints;
uniform int uSelectedJoint;
uniform float uNormalLength;

#if defined(SKIN_LINEAR)
in vec3 aPosition;
in vec3 aNormal;
in uvec4 aJoints;
in vec4 aWeights;
#elif defined(SKIN_DPM)
uniform sampler2D uInfluences;
in uvec2 aRange;
#elif defined(MORPH)
in vec3 aPosition;
in vec3 aNormal;
in vec3 aPositionB;
in vec3 aNormalB;
uniform float uBlend;
#else
in vec3 aPosition;
in vec3 aNormal;
#endif
in vec2 aTexcoord;
in vec4 aColor;

out vec3 vModelPos;
out vec4 vColor;
out vec3 vNormal;
out vec2 vTexcoord;
out float vWeight;
out float vUnweighted;

const int JOINTS_PER_ROW = ${JOINTS_PER_ROW};
const int INFLUENCES_PER_ROW = ${INFLUENCES_PER_ROW};

void jointRows(int j, out vec4 r0, out vec4 r1, out vec4 r2) {
  ivec2 base = ivec2((j % JOINTS_PER_ROW) * 3, j / JOINTS_PER_ROW);
  r0 = texelFetch(uJoints, base, 0);
  r1 = texelFetch(uJoints, base + ivec2(1, 0), 0);
  r2 = texelFetch(uJoints, base + ivec2(2, 0), 0);
}

void main() {
  vec3 pos;
  vec3 nrm;
  vWeight = 0.0;
  vUnweighted = 0.0;
#if defined(SKIN_LINEAR)
  float total = aWeights.x + aWeights.y + aWeights.z + aWeights.w;
  if (total > 0.0) {
    pos = vec3(0.0);
    nrm = vec3(0.0);
    for (int i = 0; i < 4; i++) {
      float w = aWeights[i];
      if (w == 0.0) continue;
      int j = int(aJoints[i]);
      vec4 r0, r1, r2;
      jointRows(j, r0, r1, r2);
      vec4 p = vec4(aPosition, 1.0);
      pos += w * vec3(dot(r0, p), dot(r1, p), dot(r2, p));
      nrm += w * vec3(dot(r0.xyz, aNormal), dot(r1.xyz, aNormal), dot(r2.xyz, aNormal));
      if (j == uSelectedJoint) vWeight += w;
    }
  } else {
    pos = aPosition;
    nrm = aNormal;
    vUnweighted = 1.0;
  }
#elif defined(SKIN_DPM)
  pos = vec3(0.0);
  nrm = vec3(0.0);
  int first = int(aRange.x);
  int count = int(aRange.y);
  if (count == 0) vUnweighted = 1.0;
  count = min(count, ${MAX_DPM_INFLUENCES});
  for (int i = 0; i < count; i++) {
    int k = first + i;
    ivec2 t = ivec2((k % INFLUENCES_PER_ROW) * 2, k / INFLUENCES_PER_ROW);
    vec4 a = texelFetch(uInfluences, t, 0);
    vec4 b = texelFetch(uInfluences, t + ivec2(1, 0), 0);
    int j = int(b.w);
    if (j < 0) continue;
    vec4 r0, r1, r2;
    jointRows(j, r0, r1, r2);
    // Origins and normals are pre-multiplied by the influence, in the bone's space.
    pos += vec3(dot(r0.xyz, a.xyz), dot(r1.xyz, a.xyz), dot(r2.xyz, a.xyz)) + a.w * vec3(r0.w, r1.w, r2.w);
    nrm += vec3(dot(r0.xyz, b.xyz), dot(r1.xyz, b.xyz), dot(r2.xyz, b.xyz));
    if (j == uSelectedJoint) vWeight += a.w;
  }
#elif defined(MORPH)
  pos = mix(aPosition, aPositionB, uBlend);
  nrm = mix(aNormal, aNormalB, uBlend);
#else
  pos = aPosition;
  nrm = aNormal;
#endif
  float nl = length(nrm);
  nrm = nl > 0.0 ? nrm / nl : vec3(0.0, 0.0, 1.0);
  vModelPos = pos;
  vNormal = mat3(uModel) * nrm;
  vTexcoord = aTexcoord;
  vColor = aColor;
  vec3 p = pos;
#if defined(NORMALS)
  if (gl_VertexID == 1) p += nrm * uNormalLength;
#endif
  gl_Position = uViewProj * (uModel * vec4(p, 1.0));
}
`;

export const FRAGMENT_SOURCE = `
precision highp float;
precision highp int;

uniform sampler2D uTexture;
uniform int uColorMode;    // 0 lit texture, 1 flat uColor, 2 weight heat map, 3 lit untextured
uniform vec4 uColor;
uniform vec3 uLightDir;
uniform float uAlphaTest;  // < 0: off
uniform int uHighlightUnweighted;
uniform int uVertexColors; // 1: multiply by the mesh's vertex colours
uniform int uLit;          // 0: unlit (full brightness)
uniform int uBlendMode;    // 0 opaque, 1 additive, 2 alpha blend, 3 filter (Q3 blendFunc)

in vec3 vModelPos;
in vec4 vColor;
in vec3 vNormal;
in vec2 vTexcoord;
in float vWeight;
in float vUnweighted;

out vec4 outColor;

vec3 heat(float t) {
  t = clamp(t, 0.0, 1.0);
  return clamp(vec3(1.5 - abs(4.0 * t - 3.0), 1.5 - abs(4.0 * t - 2.0), 1.5 - abs(4.0 * t - 1.0)), 0.0, 1.0);
}

void main() {
  if (uColorMode == 1) {
    outColor = uColor;
    return;
  }
  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
  float diffuse = max(dot(n, uLightDir), 0.0);
  float light = uLit == 1 ? 0.35 + 0.65 * diffuse : 1.0;
  vec4 base = vec4(0.75, 0.75, 0.75, 1.0);
  if (uColorMode == 0) {
    base = texture(uTexture, vTexcoord);
    if (uAlphaTest >= 0.0 && base.a < uAlphaTest) discard;
  } else if (uColorMode == 2) {
    base = vec4(vWeight > 0.0 ? heat(vWeight) : vec3(0.1, 0.1, 0.35), 1.0);
  }
  if (uVertexColors == 1 && uColorMode != 2) base *= vColor;
  vec3 rgb = base.rgb * light;
  // In the weight view, vertices that no joint moves glow magenta, fading over their triangles.
  if (uHighlightUnweighted == 1) rgb = mix(rgb, vec3(1.0, 0.0, 1.0), clamp(vUnweighted * 1.5, 0.0, 1.0));
  if (uBlendMode == 1) outColor = vec4(rgb * base.a, 1.0);
  else if (uBlendMode == 2) outColor = vec4(rgb, base.a);
  else if (uBlendMode == 3) outColor = vec4(base.rgb, 1.0);
  else outColor = vec4(rgb, 1.0);
}
`;

/** Overlay lines (grid, axes, skeleton, tags, bounds): per-vertex position and colour. */
export const LINE_VERTEX_SOURCE = `
precision highp float;
uniform mat4 uViewProj;
in vec3 aPosition;
in vec4 aColor;
out vec4 vColor;
void main() {
  vColor = aColor;
  gl_Position = uViewProj * vec4(aPosition, 1.0);
  gl_PointSize = 7.0;
}
`;

export const LINE_FRAGMENT_SOURCE = `
precision highp float;
in vec4 vColor;
out vec4 outColor;
void main() { outColor = vColor; }
`;

/** Fragment shader for transform-feedback programs (rasteriser discarded; must still link). */
export const CAPTURE_FRAGMENT_SOURCE = `
precision highp float;
out vec4 outColor;
void main() { outColor = vec4(1.0); }
`;

export type VertexVariant = 'SKIN_LINEAR' | 'SKIN_DPM' | 'MORPH' | 'STATIC';

export function vertexSource(variant: VertexVariant, normals: boolean): string {
  const defs = [`#define ${variant}`];
  if (normals) defs.push('#define NORMALS');
  return `#version 300 es\n${defs.join('\n')}\n${VERTEX_SOURCE}`;
}

export function fragmentSource(source: string): string {
  return `#version 300 es\n${source}`;
}

/** Attribute locations shared by every program and VAO. */
export const ATTRIB = {
  position: 0,
  normal: 1,
  texcoord: 2,
  joints: 3,
  weights: 4,
  range: 5,
  positionB: 6,
  normalB: 7,
  color: 8,
} as const;
