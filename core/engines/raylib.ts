// raylib: LoadIQM in src/rmodels.c (~244,000 characters; read at offsets 163500-179500). raylib
// reads each IQM vertex array in one fixed layout whatever format the file declares, stores mesh
// indices in 16 bits, and gives every mesh its default material.

import { fact as f, type EngineProfile, type SourceRef } from './types';

const RMODELS = (at: string): SourceRef => ({ repo: 'raysan5/raylib', path: 'src/rmodels.c', commit: '00a763ea4485bfa00c3b65c500a466c77e2cc170', at: `LoadIQM, ${at}` });

export const RAYLIB: EngineProfile = {
  id: 'raylib',
  name: 'raylib',
  aliases: [],
  scope: 'LoadIQM and LoadIQMModelAnimations. raylib loads IQM (besides OBJ, glTF, VOX, M3D), not MD3 or DPM.',
  formats: f('raylib\'s model formats are OBJ, IQM, glTF, VOX and M3D: no MD3 or DPM loader', { repo: 'raysan5/raylib', path: 'src/rmodels.c', commit: '00a763ea4485bfa00c3b65c500a466c77e2cc170', at: 'the loaders LoadOBJ, LoadIQM, LoadGLTF, LoadVOX, LoadM3D (not read in full)' }),
  iqm: {
    loader: f('IQM is loaded by LoadIQM', RMODELS('offset ≈165300')),
    versions: [2],
    version: { effect: 'refuse', fact: f('only IQM version 2 is loaded; otherwise an empty model is returned', RMODELS('offset ≈165500')) },
    arrays: {
      position: { effect: 'mangle', otherwise: 'misread', accepts: [{ format: 'float', size: 3 }], fact: f('positions are copied as float × 3 whatever format and size the array declares', RMODELS('offset ≈169800')) },
      normal: { effect: 'mangle', otherwise: 'misread', accepts: [{ format: 'float', size: 3 }], fact: f('normals are copied as float × 3 whatever the declared format', RMODELS('offset ≈170700')) },
      texcoord: { effect: 'mangle', otherwise: 'misread', accepts: [{ format: 'float', size: 2 }], fact: f('texcoords are copied as float × 2 whatever the declared format', RMODELS('offset ≈171600')) },
      blendindexes: { effect: 'mangle', otherwise: 'misread', accepts: [{ format: 'ubyte', size: 4 }, { format: 'byte', size: 4 }], fact: f('blendindexes are copied as 4 chars per vertex whatever the declared format', RMODELS('offset ≈172500')) },
      blendweights: { effect: 'mangle', otherwise: 'misread', accepts: [{ format: 'ubyte', size: 4 }], fact: f('blendweights are copied as 4 unsigned bytes per vertex (divided by 255) whatever the declared format', RMODELS('offset ≈173400')) },
      color: { effect: 'mangle', otherwise: 'misread', accepts: [{ format: 'ubyte', size: 4 }], fact: f('colors are copied as 4 unsigned bytes per vertex whatever the declared format', RMODELS('offset ≈174400')) },
      tangent: { effect: 'note', otherwise: 'ignored', accepts: [], fact: f('tangent arrays are not read', RMODELS('the vertex array type enum, offset ≈165000')) },
      custom: { effect: 'note', otherwise: 'ignored', accepts: [], fact: f('custom vertex arrays are not read', RMODELS('the vertex array type enum, offset ≈165000')) },
    },
    maxMeshVertices: { effect: 'mangle', max: 65536, fact: f('triangle corners are stored as unsigned short relative to the mesh\'s first vertex: a mesh past 65536 vertices gets wrapped indices', RMODELS('offset ≈167800')) },
    maxBlendIndex: { effect: 'mangle', max: 127, fact: f('blend indexes are read into a char array: where char is signed (x86), an index above 127 becomes negative', RMODELS('offset ≈172500')) },
    jointNameLength: { effect: 'mangle', max: 31, fact: f('joint names are memcpy\'d BONE_NAME_LENGTH (32) bytes into BoneInfo.name: a name of 32 characters or more loses its terminator', RMODELS('offset ≈175900')) },
    materialsIgnored: { effect: 'note', fact: f('every mesh gets LoadMaterialDefault(): the IQM material names are only logged, no texture is loaded', RMODELS('offset ≈166400')) },
  },
};
