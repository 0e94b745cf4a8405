// DarkPlaces (the Xonotic engine). model_alias.c is ~160,000 characters, so places are given as
// the function and the character offset of the range read (read_file offsets), not lines.

import { fact as f, type EngineProfile, type SourceRef } from './types';

const REPO = 'DarkPlacesEngine/DarkPlaces';
/** Mod_IDP3_Load, read at offsets 61000-77000 of this version. */
const MD3 = (at: string): SourceRef => ({ repo: REPO, path: 'model_alias.c', commit: '7307693429905d86565b4a0ddcc4d0d04a6f0e51', at: `Mod_IDP3_Load, ${at}` });
/** Mod_INTERQUAKEMODEL_Load, read at offsets 136000-152000 of this version. */
const IQM = (at: string): SourceRef => ({ repo: REPO, path: 'model_alias.c', commit: '016f413cd468dd26b7f03b423f8bbc6854aa3b80', at: `Mod_INTERQUAKEMODEL_Load, ${at}` });

export const DARKPLACES: EngineProfile = {
  id: 'darkplaces',
  name: 'DarkPlaces (Xonotic)',
  aliases: ['xonotic', 'dp', 'nexuiz'],
  scope: 'The MD3, IQM and DPM loaders of model_alias.c. DarkPlaces has no per-surface MD3 vertex or triangle limit; players are game code (Xonotic), not engine rules.',
  formats: f('model_alias.c loads MD3 (Mod_IDP3_Load), IQM (Mod_INTERQUAKEMODEL_Load) and DPM (Mod_DARKPLACESMODEL_Load)', { repo: REPO, path: 'model_alias.c', commit: '7307693429905d86565b4a0ddcc4d0d04a6f0e51', at: 'Mod_IDP3_Load and Mod_INTERQUAKEMODEL_Load read; Mod_DARKPLACESMODEL_Load seen declared in model_shared.h excerpts, not read' }),
  md3: {
    loader: f('MD3 is loaded by Mod_IDP3_Load', MD3('offset ≈58300')),
    version: { effect: 'refuse', fact: f('an MD3 whose version is not 15 stops the load with Host_Error', MD3('offset ≈58900')) },
    surfaceFrames: { effect: 'refuse', fact: f('a surface whose frame count differs from the header\'s stops the load with Host_Error ("mesh numframes differs from header")', MD3('offset ≈62600')) },
  },
  iqm: {
    loader: f('IQM is loaded by Mod_INTERQUAKEMODEL_Load', IQM('offset ≈135800')),
    versions: [1, 2],
    version: { effect: 'refuse', fact: f('only IQM versions 1 and 2 are loaded (Host_Error otherwise)', IQM('offset ≈135800')) },
    arrays: {
      position: { effect: 'refuse', otherwise: 'ignored', accepts: [{ format: 'float', size: 3 }], fact: f('a position array is used only as float × 3; any other format or size is skipped', IQM('offset ≈140300')) },
      texcoord: { effect: 'refuse', otherwise: 'ignored', accepts: [{ format: 'float', size: 2 }], fact: f('a texcoord array is used only as float × 2; any other format or size is skipped', IQM('offset ≈140300')) },
      normal: { effect: 'mangle', otherwise: 'ignored', accepts: [{ format: 'float', size: 3 }], fact: f('a normal array is used only as float × 3; otherwise it is skipped and the normals are recomputed', IQM('offset ≈140300')) },
      tangent: { effect: 'note', otherwise: 'ignored', accepts: [{ format: 'float', size: 4 }], fact: f('a tangent array is used only as float × 4; otherwise it is skipped and tangents are recomputed', IQM('offset ≈140300')) },
      blendindexes: { effect: 'mangle', otherwise: 'ignored', accepts: [{ format: 'ubyte', size: 4 }], fact: f('blendindexes are used only as ubyte × 4; any other format is skipped', IQM('offset ≈140300')) },
      blendweights: { effect: 'mangle', otherwise: 'ignored', accepts: [{ format: 'ubyte', size: 4 }], fact: f('blendweights are used only as ubyte × 4 (float weights are skipped)', IQM('offset ≈140300')) },
      color: { effect: 'mangle', otherwise: 'ignored', accepts: [{ format: 'float', size: 4 }, { format: 'ubyte', size: 4 }], fact: f('a color array is used only as float × 4 or ubyte × 4', IQM('offset ≈140300')) },
      custom: { effect: 'note', otherwise: 'ignored', accepts: [], fact: f('custom vertex arrays are not read', IQM('offset ≈140300')) },
    },
    required: { effect: 'refuse', arrays: ['position', 'texcoord'], fact: f('an IQM with vertices but no usable position or texcoord array is left without geometry ("is missing vertex array data")', IQM('offset ≈141900')) },
    requiredWhenSkinned: { effect: 'refuse', arrays: ['blendindexes', 'blendweights'], when: 'animated', fact: f('an IQM with frames or animations but no usable blendindexes and blendweights is left without geometry ("is missing vertex array data")', IQM('offset ≈141900')) },
    parentsFirst: { effect: 'refuse', fact: f('a joint whose parent is not listed before it stops the load with Host_Error ("bone[i].parent >= i")', IQM('offset ≈148400')) },
    jointScaleIgnored: { effect: 'mangle', fact: f('the bind pose of a joint is built from its translation and rotation only; the joint scale is read and dropped', IQM('offset ≈148600')) },
  },
  dpm: {
    loader: f('DPM (type 2) is DarkPlaces\'s own skeletal format, loaded by Mod_DARKPLACESMODEL_Load', { repo: REPO, path: 'model_alias.c', commit: '7307693429905d86565b4a0ddcc4d0d04a6f0e51', at: 'Mod_DARKPLACESMODEL_Load (declared in model_shared.h; not read)' }),
  },
};
