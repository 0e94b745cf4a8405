// FTE (FTEQW). The IQM loader is Mod_ParseIQMMeshModel in engine/common/com_mesh.c (~290,000
// characters; read at offsets 232000-248000, places given as offsets). FTE converts vertex arrays
// of any format, so it has fewer format rules than the Quake 3 family.

import { fact as f, type EngineProfile, type SourceRef } from './types';

const REPO = 'fte-team/fteqw';
const COMMIT = '022e42c6c742c21c4f0b79e29642030349885b74';
const IQM = (at: string): SourceRef => ({ repo: REPO, path: 'engine/common/com_mesh.c', commit: COMMIT, at: `Mod_ParseIQMMeshModel, ${at}` });
const MESH_H = (lines: string): SourceRef => ({ repo: REPO, path: 'engine/common/com_mesh.h', commit: COMMIT, lines });

export const FTE: EngineProfile = {
  id: 'fte',
  name: 'FTE (FTEQW)',
  aliases: ['fteqw'],
  scope: 'The IQM loader (Mod_ParseIQMMeshModel). FTE also loads MD3 and DPM; their loaders were not read, so only their presence is recorded. FTE\'s MAX_BONES joint limit is checked by the loader but its value was not found in the files read, so it is not checked here.',
  formats: f('IQM, MD3 and DPM are all compiled in (INTERQUAKEMODELS, MD3MODELS, DPMMODELS)', { repo: REPO, path: 'engine/common/bothdefs.h', commit: '018afede9aebbf2ec2d592ca02758f5a8a61568d', at: 'NONSKELETALMODELS / SKELETALMODELS definitions (offset ≈14200)' }),
  md3: {
    loader: f('MD3 support is compiled in with MD3MODELS (md3tag_t, and the tags of galiasinfo_t)', { repo: REPO, path: 'engine/common/com_mesh.h', commit: COMMIT, at: 'md3tag_t, and galiasinfo_t\'s tag fields under MD3MODELS' }),
  },
  dpm: {
    loader: f('DPM support is compiled in with DPMMODELS (one of the skeletal formats)', { repo: REPO, path: 'engine/common/bothdefs.h', commit: '018afede9aebbf2ec2d592ca02758f5a8a61568d', at: 'the SKELETALMODELS definition (offset ≈14300)' }),
  },
  iqm: {
    loader: f('IQM is loaded by Mod_ParseIQMMeshModel', IQM('offset ≈232600')),
    versions: [1, 2],
    version: { effect: 'refuse', fact: f('only IQM versions 1 and 2 are loaded', IQM('offset ≈235100')) },
    exactFileSize: { effect: 'refuse', fact: f('the header\'s filesize must equal the size of the file, or the model is not loaded', IQM('offset ≈235300')) },
    arrays: {
      tangent: { effect: 'note', otherwise: 'ignored', accepts: [{ format: 'float', size: 4 }], fact: f('a tangent array is used only as float × 4; otherwise tangents are computed', IQM('offset ≈235900')) },
    },
    required: { effect: 'refuse', arrays: ['position', 'texcoord'], fact: f('an IQM with vertices but no position or texcoord array is not loaded ("is missing vertex array data")', IQM('offset ≈236600')) },
    requiredWhenSkinned: { effect: 'refuse', arrays: ['blendindexes', 'blendweights'], when: 'any', fact: f('an IQM with joints, frames or animations but no blendindexes or blendweights is not loaded ("animated IQM lacks bone weights")', IQM('offset ≈236900')) },
    posesMatchJoints: { effect: 'refuse', animationOnly: true, fact: f('when both are present, num_poses must equal num_joints ("IQM has mismatched joints")', IQM('offset ≈237500')) },
    jointNameLength: { effect: 'mangle', max: 31, fact: f('joint names are copied into char name[32]: longer names are cut to 31 characters (QC code finds bones by name)', MESH_H('76')) },
  },
};
