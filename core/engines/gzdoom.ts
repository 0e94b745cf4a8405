// GZDoom and its 2025 fork UZDoom: the model loaders under src/common/models/ (FindModel in
// model.cpp picks the loader by the file's first bytes; IQMModel in models_iqm.cpp, FMD3Model in
// models_md3.cpp, FMD2Model in models_md2.cpp). Read at the commits below; every place is a 1-based
// line (or range) counted in the text read. An unsupported IQM vertex array format is I_FatalError:
// the game stops.

import { fact as f, type EngineProfile, type IqmRules, type Md2Rules, type Md3Rules, type SourceRef } from './types';

const GZ = 'ZDoom/gzdoom';
const GZ_IQM = (lines: string): SourceRef => ({ repo: GZ, path: 'src/common/models/models_iqm.cpp', commit: '5de178b4a815bd244916eee6fe5ec2e2f7489a97', lines });
const GZ_MODEL = (lines: string): SourceRef => ({ repo: GZ, path: 'src/common/models/model.cpp', commit: '941c0850ba7c98663c55fa7b3b4a9d2b5657aeb3', lines });
const UZ = 'UZDoom/UZDoom';
const UZ_IQM = (lines: string): SourceRef => ({ repo: UZ, path: 'src/common/models/models_iqm.cpp', commit: '96640d73f612b274a33bbf11646a3e92366b5d6b', lines });
const UZ_MODEL = (lines: string): SourceRef => ({ repo: UZ, path: 'src/common/models/model.cpp', commit: '50c4e2cc08b200c41cb55d0ca9358f3db669dcf6', lines });
const GZ_MD3 = (lines: string): SourceRef => ({ repo: GZ, path: 'src/common/models/models_md3.cpp', commit: '9875850c195012b50d52ae16b2a4df7720084cdc', lines });
const UZ_MD3 = (lines: string): SourceRef => ({ repo: UZ, path: 'src/common/models/models_md3.cpp', commit: '50c4e2cc08b200c41cb55d0ca9358f3db669dcf6', lines });
const GZ_MD2 = (lines: string): SourceRef => ({ repo: GZ, path: 'src/common/models/models_md2.cpp', commit: '8cd321bf61d818d0bed29be6550c64db2f5eb8f1', lines });
const UZ_MD2 = (lines: string): SourceRef => ({ repo: UZ, path: 'src/common/models/models_md2.cpp', commit: '50c4e2cc08b200c41cb55d0ca9358f3db669dcf6', lines });

/** The MD3 loader both share (UZDoom's file is GZDoom's with a longer licence header and one line more in Load): each fact at its lines in the engine `md3` is read from. */
function md3Rules(loader: Md3Rules['loader'], md3: (lines: string) => SourceRef, at: { name: string; load: string; scale: string; axes: string; shaders: string; unskinned: string; frame: string }): Md3Rules {
  return {
    loader,
    frameNameLength: { effect: 'mangle', max: 15, fact: f('FMD3Model::Load keeps 15 characters of a frame name (strncpy(..., 15)); FindFrame (a MODELDEF Frame) compares names case-insensitively with the kept ones', md3(at.name)) },
    notes: {
      unchecked: f('FMD3Model::Load reads the header and surface counts without checking them: no version, frame, surface, vertex, triangle or shader limit, and no offset checked against the file', md3(at.load)),
      units: f('vertex positions are the stored shorts / 64', md3(at.scale)),
      axes: f('x, y, z are handed to the renderer as (x, z, y), normals too: the MD3\'s Z-up into the renderer\'s Y-up', md3(at.axes)),
      shaders: f('each surface shader name (\\ made /) is looked up as a full path from the mod\'s root, then under the MODELDEF Path (LoadSkin)', md3(at.shaders)),
      unskinned: f('a surface is drawn with the MODELDEF Skin, else its SurfaceSkin, else its first shader\'s image; with none of them it is not drawn', md3(at.unskinned)),
      frameRange: f('RenderFrame draws nothing for a frame at or past the model\'s frames', md3(at.frame)),
    },
  };
}

/** Where each IQM fact is in an engine's models_iqm.cpp (1-based lines). */
interface IqmPlaces {
  magic: string;
  version: string;
  geometry: string;
  position: string;
  texcoord: string;
  normal: string;
  blendindexes: string;
  blendweights: string;
}

/** The IQM rules both share, each cited at its lines in the engine `iqm` is read from. */
function iqmRules(iqm: (lines: string) => SourceRef, at: IqmPlaces): IqmRules {
  return {
    loader: f('IQM is loaded by IQMModel::Load when the file starts with INTERQUAKEMODEL', iqm(at.magic)),
    versions: [2],
    version: { effect: 'refuse', fact: f('only IQM version 2 is loaded (Load returns false: "model not found")', iqm(at.version)) },
    arrays: {
      position: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 3 }], fact: f('position must be float × 3, else I_FatalError("Unsupported IQM_POSITION vertex format")', iqm(at.position)) },
      texcoord: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 2 }], fact: f('texcoord must be float × 2, else I_FatalError("Unsupported IQM_TEXCOORD vertex format")', iqm(at.texcoord)) },
      normal: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'float', size: 3 }], fact: f('normal must be float × 3, else I_FatalError("Unsupported IQM_NORMAL vertex format")', iqm(at.normal)) },
      blendindexes: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }, { format: 'int', size: 4 }], fact: f('blendindexes must be ubyte × 4 or int × 4, else I_FatalError("Unsupported IQM_BLENDINDEXES vertex format")', iqm(at.blendindexes)) },
      blendweights: { effect: 'refuse', otherwise: 'refused', accepts: [{ format: 'ubyte', size: 4 }, { format: 'float', size: 4 }], fact: f('blendweights must be ubyte × 4 or float × 4, else I_FatalError("Unsupported IQM_BLENDWEIGHTS vertex format")', iqm(at.blendweights)) },
      tangent: { effect: 'note', otherwise: 'ignored', accepts: [], fact: f('tangent arrays are not read (LoadGeometry reads position, texcoord, normal, blendindexes, blendweights)', iqm(at.geometry)) },
      color: { effect: 'note', otherwise: 'ignored', accepts: [], fact: f('color arrays are not read (LoadGeometry reads position, texcoord, normal, blendindexes, blendweights)', iqm(at.geometry)) },
      custom: { effect: 'note', otherwise: 'ignored', accepts: [], fact: f('custom arrays are not read', iqm(at.geometry)) },
    },
  };
}

/**
 * The MD2 loader both share (UZDoom's models_md2.cpp is GZDoom's with a licence header 2 lines
 * longer): each fact at its lines in the engine `md2` is read from; `d` is that file's offset.
 */
function md2Rules(md2: (lines: string) => SourceRef, d: number): Md2Rules {
  const at = (...lines: number[][]) => md2(lines.map((l) => l.map((n) => n + d).join('-')).join(', '));
  return {
    loader: f('MD2 is loaded by FMD2Model::Load, which converts the header to DMD\'s', at([431, 458])),
    framesInFile: { effect: 'refuse', fact: f('an MD2 whose frames (ofs_frames + framesize × num_frames) end past the file is refused: "LoadModel: Model \'…\' file too short"', at([460, 464])) },
    glCommands: { effect: 'refuse', fact: f('an MD2 whose num_glcmds is 0 or below is refused: "LoadModel: Model \'…\' invalid NumGLCommands"', at([465, 469])) },
    notes: {
      frameNames: f('a frame\'s name is its 16 name bytes (FMD2Model::Load); FDMDModel::FindFrame compares names case-insensitively', at([486], [355])),
      vertices: f('a vertex is its byte × the frame\'s scale + translate, per axis, with y and z swapped into the renderer\'s Y-up (axis = { VX, VY, VZ } over enum { VX, VZ, VY })', at([39], [501], [528, 531])),
      unskinned: f('without a MODELDEF Skin the model is drawn with its first skin, and not at all where it has none or that image is not found', at([370, 375])),
    },
  };
}

const FORMATS_TEXT = 'FindModel picks the loader by the file: MD2 (IDP2), MD3 (IDP3), IQM (INTERQUAKEMODEL), DMD, OBJ, Unreal 3D, else a KVX voxel, else "Unknown model format": no DPM loader';

export const GZDOOM: EngineProfile = {
  id: 'gzdoom',
  name: 'GZDoom',
  aliases: ['zdoom'],
  scope: 'The IQM loader (IQMModel in models_iqm.cpp), the MD3 loader (FMD3Model in models_md3.cpp: it checks no count), the MD2 loader\'s two refusals (FMD2Model::Load; applied to the MD2 files a MODELDEF names) and which formats FindModel loads. MODELDEF itself is checked by the MODELDEF language support (core/sidecarCheck/modeldef.ts).',
  formats: f(FORMATS_TEXT, GZ_MODEL('178-238')),
  md3: md3Rules(f('MD3 is loaded by FMD3Model when the file starts with IDP3', GZ_MODEL('208-211')), GZ_MD3, { name: '144', load: '130-180', scale: '227-229', axes: '280-281', shaders: '171-175', unskinned: '357-372', frame: '348' }),
  md2: md2Rules(GZ_MD2, 0),
  // Counted in models_iqm.cpp @5de178b (its first line is empty; Load starts at 22).
  iqm: iqmRules(GZ_IQM, { magic: '32-33', version: '36-37', geometry: '272-308', position: '313-329', texcoord: '334-345', normal: '350-364', blendindexes: '369-394', blendweights: '399-424' }),
};

export const UZDOOM: EngineProfile = {
  id: 'uzdoom',
  name: 'UZDoom',
  aliases: [],
  scope: 'UZDoom (the 2025 fork of GZDoom): the IQM loader (IQMModel in models_iqm.cpp), which also refuses joints listed before their parent, the MD3 loader (FMD3Model in models_md3.cpp: it checks no count), the MD2 loader\'s two refusals (FMD2Model::Load; applied to the MD2 files a MODELDEF names) and which formats FindModel loads. FindModel\'s 2 GB file limit is not checked here.',
  formats: f(FORMATS_TEXT, UZ_MODEL('175-235')),
  md3: md3Rules(f('MD3 is loaded by FMD3Model when the file starts with IDP3', UZ_MODEL('205-208')), UZ_MD3, { name: '152', load: '137-188', scale: '235-237', axes: '288-289', shaders: '179-183', unskinned: '365-380', frame: '356' }),
  md2: md2Rules(UZ_MD2, 2),
  iqm: {
    // Counted in models_iqm.cpp @96640d7 (a 27-line licence header; Load starts at 48): GZDoom's lines + 26 up to the joints loop, + 37 after Load.
    ...iqmRules(UZ_IQM, { magic: '58-59', version: '62-63', geometry: '309-345', position: '350-366', texcoord: '371-382', normal: '387-401', blendindexes: '406-431', blendweights: '436-461' }),
    parentsFirst: { effect: 'refuse', fact: f('a joint whose parent is not listed before it stops the game: I_FatalError("Joint child comes before parent in IQM Model")', UZ_IQM('173-176')) },
  },
};
