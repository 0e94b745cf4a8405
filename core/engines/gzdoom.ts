// GZDoom and its 2025 fork UZDoom: the model loaders under src/common/models/ (FindModel in
// model.cpp picks the loader by the file's first bytes; IQMModel in models_iqm.cpp). Read at the
// commits below; places are given as function and character offset (the stored sources are read
// by offset). An unsupported IQM vertex array format is I_FatalError: the game stops.

import { fact as f, type EngineProfile, type IqmRules, type SourceRef } from './types';

const GZ = 'ZDoom/gzdoom';
const GZ_IQM = (at: string): SourceRef => ({ repo: GZ, path: 'src/common/models/models_iqm.cpp', commit: '5de178b4a815bd244916eee6fe5ec2e2f7489a97', at });
const GZ_MODEL = (at: string): SourceRef => ({ repo: GZ, path: 'src/common/models/model.cpp', commit: '941c0850ba7c98663c55fa7b3b4a9d2b5657aeb3', at });
const UZ = 'UZDoom/UZDoom';
const UZ_IQM = (at: string): SourceRef => ({ repo: UZ, path: 'src/common/models/models_iqm.cpp', commit: '96640d73f612b274a33bbf11646a3e92366b5d6b', at });
const UZ_MODEL = (at: string): SourceRef => ({ repo: UZ, path: 'src/common/models/model.cpp', commit: '50c4e2cc08b200c41cb55d0ca9358f3db669dcf6', at });

/** The IQM rules both share, each cited in the engine `iqm` is read from. */
function iqmRules(iqm: (at: string) => SourceRef): IqmRules {
  return {
    loader: f('IQM is loaded by IQMModel::Load when the file starts with INTERQUAKEMODEL', iqm('IQMModel::Load, offset ≈600')),
    versions: [2],
    version: { effect: 'refuse', fact: f('only IQM version 2 is loaded (Load returns false: "model not found")', iqm('IQMModel::Load, `if (version != 2) return false`')) },
    arrays: {
      position: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 3 }], fact: f('position must be float × 3, else I_FatalError("Unsupported IQM_POSITION vertex format")', iqm('IQMModel::LoadPosition')) },
      texcoord: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 2 }], fact: f('texcoord must be float × 2, else I_FatalError("Unsupported IQM_TEXCOORD vertex format")', iqm('IQMModel::LoadTexcoord')) },
      normal: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 3 }], fact: f('normal must be float × 3, else I_FatalError("Unsupported IQM_NORMAL vertex format")', iqm('IQMModel::LoadNormal')) },
      blendindexes: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }, { format: 'int', size: 4 }], fact: f('blendindexes must be ubyte × 4 or int × 4, else I_FatalError("Unsupported IQM_BLENDINDEXES vertex format")', iqm('IQMModel::LoadBlendIndexes')) },
      blendweights: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }, { format: 'float', size: 4 }], fact: f('blendweights must be ubyte × 4 or float × 4, else I_FatalError("Unsupported IQM_BLENDWEIGHTS vertex format")', iqm('IQMModel::LoadBlendWeights')) },
      tangent: { effect: 'note', otherwise: 'ignored', accepts: [], fact: f('tangent arrays are not read (LoadGeometry reads position, texcoord, normal, blendindexes, blendweights)', iqm('IQMModel::LoadGeometry')) },
      color: { effect: 'note', otherwise: 'ignored', accepts: [], fact: f('color arrays are not read (LoadGeometry reads position, texcoord, normal, blendindexes, blendweights)', iqm('IQMModel::LoadGeometry')) },
      custom: { effect: 'note', otherwise: 'ignored', accepts: [], fact: f('custom arrays are not read', iqm('IQMModel::LoadGeometry')) },
    },
  };
}

const FORMATS_TEXT = 'FindModel picks the loader by the file: MD2 (IDP2), MD3 (IDP3), IQM (INTERQUAKEMODEL), DMD, OBJ, Unreal 3D, else a KVX voxel, else "Unknown model format": no DPM loader';

export const GZDOOM: EngineProfile = {
  id: 'gzdoom',
  name: 'GZDoom',
  aliases: ['zdoom'],
  scope: 'The IQM loader (IQMModel in models_iqm.cpp) and which formats FindModel loads. The MD3 and MD2 loaders were not read for limits. MODELDEF itself is checked by the MODELDEF language support (core/sidecarCheck/modeldef.ts).',
  formats: f(FORMATS_TEXT, GZ_MODEL('FindModel, offset ≈3500')),
  md3: { loader: f('MD3 is loaded by FMD3Model when the file starts with IDP3', GZ_MODEL('FindModel, offset ≈4800')) },
  iqm: iqmRules(GZ_IQM),
};

export const UZDOOM: EngineProfile = {
  id: 'uzdoom',
  name: 'UZDoom',
  aliases: [],
  scope: 'UZDoom (the 2025 fork of GZDoom): the IQM loader (IQMModel in models_iqm.cpp), which also refuses joints listed before their parent, and which formats FindModel loads. The MD3 and MD2 loaders were not read for limits; FindModel\'s 2 GB file limit is not checked here.',
  formats: f(FORMATS_TEXT, UZ_MODEL('FindModel, offset ≈4800')),
  md3: { loader: f('MD3 is loaded by FMD3Model when the file starts with IDP3', UZ_MODEL('FindModel, offset ≈5300')) },
  iqm: {
    ...iqmRules(UZ_IQM),
    parentsFirst: { effect: 'refuse', fact: f('a joint whose parent is not listed before it stops the game: I_FatalError("Joint child comes before parent in IQM Model")', UZ_IQM('IQMModel::Load, the joints loop, offset ≈4800')) },
  },
};
