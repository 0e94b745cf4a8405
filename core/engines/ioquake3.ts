// ioquake3 (renderergl1; renderergl2 has the same loader checks). Read in ioquake/ioq3 at the
// commits below; lines counted in those files. docs/ENGINES.md has the list with the reasoning.

import { fact as f, type EngineProfile, type PlayerRules, type SourceRef } from './types';

const REPO = 'ioquake/ioq3';
const QFILES = (lines: string): SourceRef => ({ repo: REPO, path: 'code/qcommon/qfiles.h', commit: '0742d30e5c12385ebc3342f7246330288275d8e6', lines });
const MODEL = (lines: string): SourceRef => ({ repo: REPO, path: 'code/renderergl1/tr_model.c', commit: '2ca05943a6a8f341eadc98cc42473c7f8cafc196', lines });
const IQM = (lines: string): SourceRef => ({ repo: REPO, path: 'code/renderergl1/tr_model_iqm.c', commit: '2ca05943a6a8f341eadc98cc42473c7f8cafc196', lines });
const IMAGE = (at: string): SourceRef => ({ repo: REPO, path: 'code/renderergl1/tr_image.c', commit: '2ca05943a6a8f341eadc98cc42473c7f8cafc196', at });
const PLAYERS = (at: string): SourceRef => ({ repo: REPO, path: 'code/cgame/cg_players.c', commit: '0742d30e5c12385ebc3342f7246330288275d8e6', at });

/** Quake 3 player rules as ioquake3's cgame applies them (shared with the original Quake 3 profile). */
export const Q3_PLAYER_RULES: PlayerRules = {
  parts: { effect: 'refuse', fact: f('lower.md3, upper.md3 and head.md3 are each required; a missing one fails the player model (the game falls back to the default model)', PLAYERS('CG_RegisterClientModelname')) },
  skinNaming: 'q3',
  skins: { effect: 'refuse', fact: f('each part needs its skin file <part>_<skin>.skin (e.g. lower_default.skin); a missing one fails the player model', PLAYERS('CG_RegisterClientSkin, CG_FindClientModelFile')) },
  animationCfg: { effect: 'refuse', fact: f('animation.cfg must give first/frames/loop/fps for every animation up to LEGS_TURN (the Team Arena ones copy TORSO_GESTURE); otherwise the player model fails', PLAYERS('CG_ParseAnimationFile')) },
  legsOffset: { effect: 'mangle', fact: f('LEGS_* first frames are reduced by first(LEGS_WALKCR) - first(TORSO_GESTURE), because lower.md3 does not contain the torso-only frames', PLAYERS('CG_ParseAnimationFile')) },
  frameRange: { effect: 'mangle', fact: f('a frame past the model\'s frames is replaced by frame 0 when drawn (R_AddMD3Surfaces, the same check as R_AddIQMSurfaces)', { repo: REPO, path: 'code/renderergl1/tr_mesh.c', commit: '2ca05943a6a8f341eadc98cc42473c7f8cafc196', at: 'R_AddMD3Surfaces (not read line by line; the pattern is the one of R_AddIQMSurfaces in tr_model_iqm.c)' }) },
  tags: {
    effect: 'mangle',
    lower: ['tag_torso'],
    upper: ['tag_head', 'tag_weapon'],
    fact: f('upper.md3 is attached at lower.md3\'s tag_torso, head.md3 at upper.md3\'s tag_head, the weapon at upper.md3\'s tag_weapon; a missing tag leaves the part at the origin', PLAYERS('CG_Player, CG_AddPlayerWeapon (not in the range read; FORMAT-PITFALLS §8.3)')),
  },
};

export const IOQUAKE3: EngineProfile = {
  id: 'ioquake3',
  name: 'ioquake3',
  aliases: ['ioq3', 'openarena'],
  scope: 'The renderer\'s MD3 and IQM loaders and the cgame player loader. ioquake3 has no DPM loader.',
  formats: f('the model loaders are IQM, MDR and MD3 (no DPM)', MODEL('193-198')),
  md3: {
    loader: f('MD3 is one of the model loaders (with IQM and MDR)', MODEL('193-198')),
    version: { effect: 'refuse', fact: f('an MD3 whose version is not 15 is not loaded', MODEL('388')) },
    noFrames: { effect: 'refuse', fact: f('an MD3 with no frames is not loaded', MODEL('411')) },
    maxSurfaceVertices: { effect: 'refuse', max: 999, fact: f('a surface with SHADER_MAX_VERTEXES (1000) or more vertices makes the whole model fail to load', MODEL('454')) },
    maxSurfaceTriangles: { effect: 'refuse', max: 1999, fact: f('a surface whose triangles × 3 reach SHADER_MAX_INDEXES (6000) makes the whole model fail to load', MODEL('460')) },
    formatLimits: {
      effect: 'note',
      frames: 1024, tags: 16, surfaces: 32, shaders: 256, vertices: 4096, triangles: 8192,
      fact: f('qfiles.h declares the MD3 limits MD3_MAX_FRAMES 1024, MD3_MAX_TAGS 16, MD3_MAX_SURFACES 32, MD3_MAX_SHADERS 256, MD3_MAX_VERTS 4096, MD3_MAX_TRIANGLES 8192 (the tools\' limits; the loader checks the lower renderer limits instead)', QFILES('85-91')),
    },
    surfaceNameSuffix: { effect: 'note', fact: f('surface names are lower-cased and a trailing "_" plus one character is cut before .skin files are matched', MODEL('471-478')) },
  },
  iqm: {
    loader: f('IQM is the first model loader tried', MODEL('193-198')),
    versions: [2],
    version: { effect: 'refuse', fact: f('only IQM version 2 is loaded', IQM('207')) },
    maxFileBytes: { effect: 'refuse', max: 16 << 20, fact: f('an IQM whose header filesize exceeds 16 MiB is not loaded', IQM('214')) },
    arrayFormats: { effect: 'refuse', allowed: ['byte', 'ubyte', 'int', 'uint', 'float'], fact: f('a vertex array (custom ones too) in short, ushort, half or double, or with a size outside 1..4, makes the model fail to load', IQM('272-305')) },
    arrays: {
      position: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 3 }], fact: f('position must be float × 3', IQM('312-318')) },
      normal: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 3 }], fact: f('normal must be float × 3', IQM('312-318')) },
      tangent: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 4 }], fact: f('tangent must be float × 4', IQM('319-324')) },
      texcoord: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 2 }], fact: f('texcoord must be float × 2', IQM('325-330')) },
      blendindexes: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }, { format: 'int', size: 4 }], fact: f('blendindexes must be ubyte × 4 or int × 4', IQM('331-338')) },
      blendweights: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }, { format: 'float', size: 4 }], fact: f('blendweights must be ubyte × 4 or float × 4', IQM('339-350')) },
      color: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }], fact: f('color must be ubyte × 4', IQM('351-356')) },
    },
    required: { effect: 'refuse', arrays: ['position', 'normal', 'texcoord'], fact: f('an IQM with meshes but without position, normal or texcoord arrays is not loaded', IQM('361-364')) },
    requiredWhenSkinned: { effect: 'refuse', arrays: ['blendindexes', 'blendweights'], when: 'joints', fact: f('an IQM with joints but without blendindexes and blendweights is not loaded', IQM('366-370')) },
    maxJoints: { effect: 'refuse', max: 128, fact: f('an IQM with more than IQM_MAX_JOINTS joints is not loaded; IQM_MAX_JOINTS is 128 (code/renderercommon/iqm.h:27 @0742d30e)', IQM('245')) },
    maxMeshVertices: { effect: 'refuse', max: 999, fact: f('a mesh with SHADER_MAX_VERTEXES (1000) or more vertices makes the model fail to load', IQM('419')) },
    maxMeshTriangles: { effect: 'refuse', max: 1999, fact: f('a mesh whose triangles × 3 reach SHADER_MAX_INDEXES (6000) makes the model fail to load', IQM('425')) },
    posesMatchJoints: { effect: 'refuse', fact: f('num_poses must be 0 or equal to num_joints', IQM('475')) },
  },
  player: Q3_PLAYER_RULES,
  textures: {
    extensions: ['tga', 'jpg', 'jpeg', 'png', 'pcx', 'bmp'],
    lookup: f('an image is loaded by its extension\'s loader; when that fails, or the name has no extension, the name without extension is tried with .tga, .jpg, .jpeg, .png, .pcx, .bmp in that order (relative to the game\'s root; a shader script of that name comes first)', IMAGE('imageLoaders[] and R_LoadImage, offset ≈24000-26500')),
    powerOfTwo: { effect: 'mangle', fact: f('a texture whose width or height is not a power of two is resampled to one (rounded up, or down with r_roundImagesDown) before upload', IMAGE('Upload32, offset ≈13700')) },
  },
};

