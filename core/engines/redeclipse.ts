// Red Eclipse (the Tesseract engine family): src/engine/iqm.h and md3.h of redeclipse/base, lines
// counted in those files. Models are normally set up by a .cfg next to them; these are the loaders.

import { fact as f, type EngineProfile, type SourceRef } from './types';

const IQM = (lines: string): SourceRef => ({ repo: 'redeclipse/base', path: 'src/engine/iqm.h', commit: '01fcd3bcf98ad27434ba8eeefca5653fa7c24475', lines });
const MD3 = (lines: string | undefined, at?: string): SourceRef => ({ repo: 'redeclipse/base', path: 'src/engine/md3.h', commit: '2df3fd7037429700c2710a27924b32a2deda69dc', lines, at });

export const REDECLIPSE: EngineProfile = {
  id: 'redeclipse',
  name: 'Red Eclipse (Tesseract)',
  aliases: ['tesseract', 're'],
  scope: 'The IQM and MD3 loaders (iqm.h, md3.h). No DPM loader. Textures come from the model\'s .cfg and skin images, not from the model file.',
  formats: f('the model loaders are MD2/MD3/MD5/IQM/SMD/OBJ headers (md2.h, md3.h, md5.h, iqm.h, smd.h, obj.h): no DPM', { repo: 'redeclipse/base', path: 'src/engine/', commit: '01fcd3bcf98ad27434ba8eeefca5653fa7c24475', at: 'directory listing: md2.h, md3.h, md5.h, iqm.h, smd.h, obj.h' }),
  iqm: {
    loader: f('IQM is loaded by iqm::loadiqm', IQM('333-344')),
    versions: [2],
    version: { effect: 'refuse', fact: f('only IQM version 2 is loaded', IQM('342')) },
    maxFileBytes: { effect: 'refuse', max: 16 << 20, fact: f('an IQM whose header filesize exceeds 16 MiB is not loaded', IQM('343')) },
    arrays: {
      position: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 3 }], fact: f('position must be float × 3', IQM('126')) },
      normal: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 3 }], fact: f('normal must be float × 3', IQM('127')) },
      tangent: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 4 }], fact: f('tangent must be float × 4', IQM('128')) },
      texcoord: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 2 }], fact: f('texcoord must be float × 2', IQM('129')) },
      blendindexes: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }], fact: f('blendindexes must be ubyte × 4', IQM('130')) },
      blendweights: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }], fact: f('blendweights must be ubyte × 4', IQM('131')) },
      color: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }], fact: f('color must be ubyte × 4', IQM('132')) },
      custom: { effect: 'note', otherwise: 'ignored', accepts: [], fact: f('custom vertex arrays are not read', IQM('124-133')) },
    },
    required: { effect: 'refuse', arrays: ['position'], fact: f('an IQM without a position array is not loaded', IQM('135')) },
    jointScaleIgnored: { effect: 'mangle', fact: f('a joint\'s bind pose is a dual quaternion of its rotation and translation: the joint scale is dropped', IQM('159')) },
    scaleChannelsIgnored: { effect: 'mangle', fact: f('animated scale channels are skipped', IQM('312-317')) },
  },
  md3: {
    loader: f('MD3 is loaded by md3meshgroup::load', MD3('56-69')),
    version: { effect: 'refuse', fact: f('an MD3 whose version is not 15 is not loaded ("corrupted header")', MD3('64')) },
    maxIndexedVertices: { effect: 'mangle', max: 65536, fact: f('triangle corners are stored as ushort: a surface past 65536 vertices gets wrapped indices', MD3('97')) },
    shadersIgnored: { effect: 'note', fact: f('the surface shader names are not used: the texture comes from md3.cfg or the skin image next to tris.md3', MD3(undefined, 'md3::loaddefaultparts and md3::load')) },
  },
};
