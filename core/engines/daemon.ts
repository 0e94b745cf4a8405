// Unvanquished's engine, Daemon: src/engine/renderer/tr_model_iqm.cpp (read in full; places given
// as functions, the file being read in two 16,000-character pieces).

import { fact as f, type EngineProfile, type SourceRef } from './types';

const IQM = (at: string): SourceRef => ({ repo: 'DaemonEngine/Daemon', path: 'src/engine/renderer/tr_model_iqm.cpp', commit: 'f2e14e319194287472a9f0929479c2cc30de745b', at });

export const DAEMON: EngineProfile = {
  id: 'daemon',
  name: 'Unvanquished (Daemon)',
  aliases: ['unvanquished'],
  scope: 'The IQM loader (LoadIQMFile, R_LoadIQModel). Daemon also loads MD3 (tr_model_md3.cpp, not read: no rules) and MD5; it has no DPM loader.',
  formats: f('the renderer has MD3, IQM, MD5 and PSK loaders (tr_model_*.cpp): no DPM', { repo: 'DaemonEngine/Daemon', path: 'src/engine/renderer/', commit: 'f2e14e319194287472a9f0929479c2cc30de745b', at: 'directory listing: tr_model_md3.cpp, tr_model_iqm.cpp, tr_model_md5.cpp, tr_model_skel.cpp' }),
  md3: {
    loader: f('MD3 is loaded by R_LoadMD3', { repo: 'DaemonEngine/Daemon', path: 'src/engine/renderer/tr_model_md3.cpp', commit: '0579d5f5b6315486de448e666ae336a98bbb13c9', at: 'R_LoadMD3 (not read)' }),
  },
  iqm: {
    loader: f('IQM is loaded by R_LoadIQModel after LoadIQMFile checks it', IQM('R_LoadIQModel')),
    versions: [2],
    version: { effect: 'refuse', fact: f('only IQM version 2 is loaded', IQM('LoadIQMFile, offset ≈3100')) },
    maxFileBytes: { effect: 'refuse', max: 1 << 24, fact: f('an IQM whose header filesize exceeds 16 MiB (1<<24) is not loaded', IQM('LoadIQMFile, offset ≈3350')) },
    arrayFormats: { effect: 'refuse', allowed: ['byte', 'ubyte', 'int', 'uint', 'float'], fact: f('a vertex array (custom ones too) in short, ushort, half or double, or with a size outside 1..4, makes the model fail to load', IQM('LoadIQMFile, offset ≈4700-5900')) },
    arrays: {
      position: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 3 }], fact: f('position must be float × 3', IQM('LoadIQMFile')) },
      normal: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 3 }], fact: f('normal must be float × 3', IQM('LoadIQMFile')) },
      tangent: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 4 }], fact: f('tangent must be float × 4', IQM('LoadIQMFile')) },
      texcoord: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 2 }], fact: f('texcoord must be float × 2', IQM('LoadIQMFile')) },
      blendindexes: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }], fact: f('blendindexes must be ubyte × 4 (int indexes, which ioquake3 takes, are refused)', IQM('LoadIQMFile')) },
      blendweights: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }], fact: f('blendweights must be ubyte × 4 (float weights are refused)', IQM('LoadIQMFile')) },
      color: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }], fact: f('color must be ubyte × 4', IQM('LoadIQMFile')) },
    },
    parentsFirst: { effect: 'refuse', fact: f('a joint whose parent is not listed before it is refused ("invalid parent joint number")', IQM('R_LoadIQModel, joint transforms')) },
    uniformScale: { effect: 'refuse', fact: f('a joint or pose scale that is negative, or whose x, y, z differ by 1 or more (the difference is truncated to an integer), is refused ("invalid scale"); only x is used', IQM('LoadIQMFile (joints) and R_LoadIQModel (poses)')) },
    emptyAnimation: { effect: 'refuse', fact: f('an animation with no frames is refused ("animation with no frames")', IQM('R_LoadIQModel, animations')) },
  },
};
