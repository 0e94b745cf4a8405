// The original Quake III Arena renderer (id-Software/Quake-III-Arena), where its MD3 limits differ
// from ioquake3's: a surface may have SHADER_MAX_VERTEXES vertices exactly, and one over drops the
// game to the console (ri.Error ERR_DROP) instead of failing only the model. No IQM loader.

import { Q3_PLAYER_RULES } from './ioquake3';
import { fact as f, type EngineProfile, type SourceRef } from './types';

const MODEL = (lines: string): SourceRef => ({ repo: 'id-Software/Quake-III-Arena', path: 'code/renderer/tr_model.c', commit: '05e8ab95381d9a99a73c0ee396744ee3fac33170', lines });

export const QUAKE3: EngineProfile = {
  id: 'quake3',
  name: 'Quake III Arena (original)',
  aliases: ['q3', 'q3a'],
  scope: 'The original renderer\'s MD3 loader (MD3 and MD4 only; no IQM or DPM) and the cgame player rules, which ioquake3 kept.',
  formats: f('RE_RegisterModel loads MD3 (and MD4); there is no IQM or DPM loader', MODEL('181-204')),
  md3: {
    loader: f('MD3 is loaded by RE_RegisterModel (MD4 is the only other mesh format)', MODEL('181-204')),
    version: { effect: 'refuse', fact: f('an MD3 whose version is not 15 is not loaded', MODEL('271')) },
    noFrames: { effect: 'refuse', fact: f('an MD3 with no frames is not loaded', MODEL('294')) },
    maxSurfaceVertices: { effect: 'refuse', max: 1000, fact: f('a surface with more than SHADER_MAX_VERTEXES (1000) vertices drops the game to the console (ERR_DROP)', MODEL('337')) },
    maxSurfaceTriangles: { effect: 'refuse', max: 2000, fact: f('a surface whose triangles × 3 exceed SHADER_MAX_INDEXES (6000) drops the game to the console (ERR_DROP)', MODEL('341')) },
    formatLimits: {
      effect: 'note',
      frames: 1024, tags: 16, surfaces: 32, shaders: 256, vertices: 4096, triangles: 8192,
      fact: f('the MD3 format limits MD3_MAX_FRAMES 1024, MD3_MAX_TAGS 16, MD3_MAX_SURFACES 32, MD3_MAX_SHADERS 256, MD3_MAX_VERTS 4096, MD3_MAX_TRIANGLES 8192 of qfiles.h (q3data\'s limits; the renderer checks its own lower ones)', { repo: 'ioquake/ioq3', path: 'code/qcommon/qfiles.h', commit: '0742d30e5c12385ebc3342f7246330288275d8e6', lines: '85-91' }),
    },
    surfaceNameSuffix: { effect: 'note', fact: f('surface names are lower-cased and a trailing "_" plus one character is cut before .skin files are matched', MODEL('350-357')) },
  },
  player: Q3_PLAYER_RULES,
};
