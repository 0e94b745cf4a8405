// One-line documentation of each IQE command (../shared/specs/iqe.txt, with the reference
// compiler's actual defaults from IQE-SEMANTICS.md §3), for hover and completion.
export interface CommandDoc {
  syntax: string;
  summary: string;
}

export const COMMAND_DOCS: Readonly<Record<string, CommandDoc>> = {
  vp: { syntax: 'vp X Y Z [W]', summary: 'Vertex position. Missing X, Y, Z are 0; W defaults to 1 (not written, but it takes part in welding).' },
  vt: { syntax: 'vt U V', summary: 'Texture coordinate; (0, 0) is the top-left of the image. Missing values are 0.' },
  vn: { syntax: 'vn X Y Z', summary: 'Vertex normal. If any vn exists, normals are not generated for the whole file.' },
  vx: { syntax: 'vx X Y Z [W] | vx X Y Z BX BY BZ', summary: 'Tangent with handedness W (±1), or tangent and bitangent. Do not mix the two forms.' },
  vb: { syntax: 'vb J W [J W …]', summary: 'Blend joints and weights. Weights ≤ 0.001 are dropped; the 4 largest are kept and renormalised.' },
  vc: { syntax: 'vc R G B [A]', summary: 'Vertex colour in 0..1; A defaults to 1. Written as ubyte RGBA.' },
  v0: { syntax: 'v0 X Y Z W', summary: 'Custom attribute 0 (see vertexarray custom0 for its name and format).' },
  vs: { syntax: 'vs N', summary: 'Smoothing index of the vertex: corners whose vertices share it are smoothed together.' },
  pq: { syntax: 'pq TX TY TZ QX QY QZ [QW] [SX SY SZ]', summary: 'Pose: translation, rotation quaternion (QW derived negative if absent), scale (default 1).' },
  pm: { syntax: 'pm TX TY TZ AX AY AZ BX BY BZ CX CY CZ [SX SY SZ]', summary: 'Pose: translation and a 3×3 matrix (rows A, B, C) that may include scale.' },
  pa: { syntax: 'pa TX TY TZ RX RY RZ [SX SY SZ]', summary: 'Pose: translation and rotations about X, Y, Z in radians (X applied first).' },
  fa: { syntax: 'fa A B C [D …]', summary: 'Face with indices from the first vertex of the file; negative indices count back from the last vertex read. Polygons are fan-triangulated. Front faces are clockwise.' },
  fm: { syntax: 'fm A B C [D …]', summary: "Face with indices from the first vertex after the last 'mesh'; negative indices count back from the last vertex read." },
  fs: { syntax: 'fs A B C [D …]', summary: 'Edge smoothing flags (0 or 1) of the matching face, one per edge starting at each corner.' },
  smoothgroup: { syntax: 'smoothgroup N', summary: 'Faces that follow are smoothed only with faces of the same group key (default -1).' },
  smoothangle: { syntax: 'smoothangle DEGREES', summary: 'Faces that follow are smoothed only with faces whose normals are at most this far apart (default: no limit).' },
  smoothuv: { syntax: 'smoothuv [N]', summary: 'N > 0 (or absent): smooth only corners whose texture coordinates match; N ≤ 0 turns it off.' },
  mesh: { syntax: 'mesh NAME', summary: 'Starts a mesh; fm indices count from its first vertex.' },
  material: { syntax: 'material NAME', summary: 'Material (usually the texture name) of the current mesh.' },
  joint: { syntax: 'joint NAME [PARENT]', summary: 'A joint of the skeleton; PARENT is the index of an earlier joint, or -1 (default) for a root.' },
  vertexarray: { syntax: 'vertexarray TYPE FORMAT SIZE [NAME]', summary: 'Declares the stored format of a vertex array, e.g. `vertexarray blendindexes ushort 4`. The first declaration of a type wins.' },
  animation: { syntax: 'animation [NAME]', summary: 'Starts an animation; the poses that follow, in frames, belong to it.' },
  frame: { syntax: 'frame', summary: 'Starts a frame of the current animation: one pose per joint follows.' },
  framerate: { syntax: 'framerate FPS', summary: 'Frames per second of the current animation (default 0: the player chooses).' },
  loop: { syntax: 'loop', summary: 'Marks the current animation as looping.' },
  comment: { syntax: 'comment', summary: 'Everything on the following lines, to the end of the file, is copied verbatim into the IQM comment section. Nothing after it is parsed.' },
};

for (let i = 1; i <= 9; i++) {
  (COMMAND_DOCS as Record<string, CommandDoc>)[`v${i}`] = { syntax: `v${i} X Y Z W`, summary: `Custom attribute ${i} (see vertexarray custom${i} for its name and format).` };
}

export const VERTEXARRAY_TYPE_DOCS: Readonly<Record<string, string>> = {
  position: 'vp data; default float 3',
  texcoord: 'vt data; default float 2',
  normal: 'vn data (given or generated); default float 3',
  tangent: 'vx data (given or generated); default float 4',
  blendindexes: 'vb joint indices; default ubyte 4 (joints ≥ 256 need ushort)',
  blendweights: 'vb weights; default ubyte 4, summing to exactly 255',
  color: 'vc data; default ubyte 4',
};

export const VERTEXARRAY_FORMAT_DOCS: Readonly<Record<string, string>> = {
  byte: 'signed 8-bit, normalised', ubyte: 'unsigned 8-bit, normalised', short: 'signed 16-bit, normalised',
  ushort: 'unsigned 16-bit, normalised', int: 'signed 32-bit, normalised', uint: 'unsigned 32-bit, normalised',
  half: '16-bit float', float: '32-bit float', double: '64-bit float',
};
