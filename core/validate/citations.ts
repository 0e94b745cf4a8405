// What engines do with each validator code's problem, each fact with the place in the engine's own
// source it was read from (repository, file, 1-based lines at a commit, as docs/ENGINES.md cites).
// Facts the engine profiles (core/engines/) already hold are taken from them, not restated.
// docs/VALIDATION.md's per-code sections are made from this table (core/validate/doc.ts).
//
// Lines were counted in the stored copy of each file at the commit named. The few facts from files
// too long to count (DarkPlaces' model_alias.c, FTE's com_mesh.c) give the function and the
// character offset instead (`at`), as the engine profiles do.

import { DAEMON } from '../engines/daemon';
import { DARKPLACES } from '../engines/darkplaces';
import { FTE } from '../engines/fte';
import { GZDOOM, UZDOOM } from '../engines/gzdoom';
import { IOQUAKE3 } from '../engines/ioquake3';
import { REDECLIPSE } from '../engines/redeclipse';
import type { Fact, SourceRef } from '../engines/types';
import type { ValidationCode } from './codes';

export interface CodeCitation {
  codes: readonly ValidationCode[];
  /** The engine's display name, as its profile has it. */
  engine: string;
  /** What the engine's loader or renderer does with the problem, in a sentence. */
  does: string;
  source: SourceRef;
}

const IOQ3 = IOQUAKE3.name;
const IOQ3_REPO = 'ioquake/ioq3';
const IOQ3_COMMIT = '2ca05943a6a8f341eadc98cc42473c7f8cafc196';
/** ioquake3's IQM loader and skinning (R_LoadIQM, R_CullIQM, R_AddIQMSurfaces, RB_IQMSurfaceAnim). */
const Q3_IQM = (lines: string): SourceRef => ({ repo: IOQ3_REPO, path: 'code/renderergl1/tr_model_iqm.c', commit: IOQ3_COMMIT, lines });
/** ioquake3's MD3 drawing (R_CullModel, R_AddMD3Surfaces). */
const Q3_MESH = (lines: string): SourceRef => ({ repo: IOQ3_REPO, path: 'code/renderergl1/tr_mesh.c', commit: IOQ3_COMMIT, lines });
/** ioquake3's MD3 loader (R_LoadMD3). */
const Q3_MD3 = (lines: string): SourceRef => ({ repo: IOQ3_REPO, path: 'code/renderergl1/tr_model.c', commit: IOQ3_COMMIT, lines });
const DP_IQM_AT = (at: string): SourceRef => ({ repo: 'DarkPlacesEngine/DarkPlaces', path: 'model_alias.c', commit: '016f413cd468dd26b7f03b423f8bbc6854aa3b80', at });
const DP_MD3_AT = (at: string): SourceRef => ({ repo: 'DarkPlacesEngine/DarkPlaces', path: 'model_alias.c', commit: '7307693429905d86565b4a0ddcc4d0d04a6f0e51', at });
/** The IQM SDK's demo loader (lsalzman/iqm demo/demo.cpp): the reference reader many engines' loaders follow. */
const SDK = 'IQM SDK demo';
const SDK_DEMO = (lines: string): SourceRef => ({ repo: 'lsalzman/iqm', path: 'demo/demo.cpp', commit: '18cd687eb320f5138070fcd7cd4bda629d03b08f', lines });
/** GZDoom's IQM loader (IQMModel::Load, LoadGeometry, FindFrame, RenderFrame, BuildVertexBuffer), the version the GZDoom profile cites. */
const GZ_IQM = (lines: string): SourceRef => ({ repo: 'ZDoom/gzdoom', path: 'src/common/models/models_iqm.cpp', commit: '5de178b4a815bd244916eee6fe5ec2e2f7489a97', lines });
/** Red Eclipse's (Tesseract's) IQM loader (iqm.h: loadiqmmeshes, loadiqmanims, loadiqm), the version its profile cites. */
const RE_IQM = (lines: string): SourceRef => ({ repo: 'redeclipse/base', path: 'src/engine/iqm.h', commit: '01fcd3bcf98ad27434ba8eeefca5653fa7c24475', lines });
const RE = REDECLIPSE.name;
/** Red Eclipse's MD3 loader (md3.h: md3meshgroup::load), the version its profile cites. */
const RE_MD3 = (lines: string): SourceRef => ({ repo: 'redeclipse/base', path: 'src/engine/md3.h', commit: '2df3fd7037429700c2710a27924b32a2deda69dc', lines });
/** GZDoom's MD3 loader (FMD3Model::Load, LoadGeometry, BuildVertexBuffer), the version its profile cites. */
const GZ_MD3 = (lines: string): SourceRef => ({ repo: 'ZDoom/gzdoom', path: 'src/common/models/models_md3.cpp', commit: '9875850c195012b50d52ae16b2a4df7720084cdc', lines });
const DPM_AT = DP_MD3_AT('Mod_DARKPLACESMODEL_Load (from offset 87524)');

const c = (codes: ValidationCode | readonly ValidationCode[], engine: string, does: string, source: SourceRef): CodeCitation => ({ codes: typeof codes === 'string' ? [codes] : codes, engine, does, source });
/** A fact an engine profile already holds. */
const p = (codes: ValidationCode | readonly ValidationCode[], engine: string, f: Fact | undefined): CodeCitation => {
  if (!f) throw new Error(`citations: ${engine} has no such profile fact (for ${String(codes)})`);
  return c(codes, engine, f.text, f.source);
};

export const CODE_CITATIONS: readonly CodeCitation[] = [
  // --- IQM: ioquake3 (tr_model_iqm.c, counted from the top of the file) ---
  c('iqm-header-truncated', IOQ3, 'a file shorter than the header is not loaded (R_LoadIQM returns false)', Q3_IQM('197-199')),
  p('iqm-version', IOQ3, IOQUAKE3.iqm?.version.fact),
  c('iqm-filesize', IOQ3, 'a header filesize larger than the file (or over 16 MiB) is not loaded; a smaller one is accepted, and the blocks are then checked against the header\'s filesize, not the file\'s', Q3_IQM('214')),
  c(['iqm-block-out-of-file', 'iqm-block-in-header'], IOQ3, 'the vertex arrays, triangles, meshes, joints, poses and bounds are each checked with IQM_CheckRange (a count above 0, an offset above 0, the block inside the header\'s filesize), else the model is not loaded; an offset inside the header passes (its bytes are read as data)', Q3_IQM('36-45')),
  c('iqm-block-out-of-file', IOQ3, 'the frame data is read at ofs_frames with no range check (one ushort per animated channel, frame after frame)', Q3_IQM('884')),
  c('iqm-array-size', IOQ3, 'a vertex array with a size of 0 or more than 4 makes the model fail to load', Q3_IQM('272-274')),
  p('iqm-array-format', IOQ3, IOQUAKE3.iqm?.arrayFormats?.fact),
  c(['iqm-array-components', 'iqm-array-format-unusual'], IOQ3, 'a standard array other than position and normal float × 3, tangent float × 4, texcoord float × 2, blendindexes ubyte or int × 4, blendweights ubyte or float × 4, color ubyte × 4 makes the model fail to load', Q3_IQM('311-356')),
  c('iqm-array-type-reserved', IOQ3, 'an array of a type past IQM_COLOR is range-checked and then skipped', Q3_IQM('307-309')),
  c('iqm-array-duplicate', IOQ3, 'every array of a type is copied into the same buffer in turn: the last one in the list wins', Q3_IQM('737-766')),
  p('iqm-position-missing', IOQ3, IOQUAKE3.iqm?.required?.fact),
  p('iqm-blend-incomplete', IOQ3, IOQUAKE3.iqm?.requiredWhenSkinned?.fact),
  c('iqm-blend-without-joints', IOQ3, 'without joints the blend arrays are ignored', Q3_IQM('371-375')),
  c('iqm-triangle-index', IOQ3, 'a triangle naming a vertex past num_vertexes makes the model fail to load, but the test is `>`: an index equal to num_vertexes passes and reads one vertex past the arrays', Q3_IQM('391-395')),
  c('iqm-mesh-renderer-limit', IOQ3, 'a mesh with SHADER_MAX_VERTEXES (1000) or more vertices, or whose triangles × 3 reach SHADER_MAX_INDEXES (6000): "R_LoadIQM: … has more than 999 verts on …" (or "… 1999 triangles on …"), the whole model is not loaded', Q3_IQM('419-430')),
  c(['iqm-mesh-vertex-range', 'iqm-mesh-triangle-range'], IOQ3, 'a mesh whose first vertex or triangle is at or past the count, or whose range ends past it, makes the model fail to load', Q3_IQM('432-439')),
  c('iqm-mesh-empty', IOQ3, 'a mesh whose first_triangle is at or past num_triangles is refused, so an empty mesh placed after the last triangle makes the whole model fail to load', Q3_IQM('432-439')),
  c('iqm-text-offset', IOQ3, 'a mesh name or material, or a joint name, at or past num_text makes the model fail to load; ofs_text itself is not range-checked', Q3_IQM('432-439, 505-509')),
  c('iqm-text-no-nul', IOQ3, 'joint names are measured and copied with strlen from their offset, with no bound: a name without a NUL runs past the text table', Q3_IQM('510-511, 838-842')),
  c(['iqm-mesh-vertex-overlap', 'iqm-mesh-triangle-overlap'], IOQ3, 'meshes are checked one at a time against the counts, never against each other: overlapping meshes load and their shared triangles are drawn once per mesh', Q3_IQM('404-473')),
  c('iqm-triangle-outside-mesh', IOQ3, 'each triangle index is rebased by its mesh\'s first_vertex into the surface\'s own vertices without a check: a vertex outside the mesh becomes an index outside the vertices the surface wrote', Q3_IQM('1446-1454')),
  c(['iqm-adjacency-index', 'iqm-adjacency-mismatch'], IOQ3, 'the adjacency is not read (ofs_adjacency is only byte-swapped)', Q3_IQM('228')),
  c('iqm-joint-parent-range', IOQ3, 'a joint parent below -1 or at or past num_joints makes the model fail to load', Q3_IQM('505-509')),
  c(['iqm-joint-parent-order', 'iqm-joint-cycle'], IOQ3, 'the order is not checked: a joint\'s bind matrix is multiplied by its parent\'s, which for a parent listed later is not computed yet, so the joint\'s bind pose is wrong', Q3_IQM('863-869')),
  c(['iqm-pose-parent-range', 'iqm-pose-parent-order', 'iqm-pose-cycle', 'iqm-pose-parent-mismatch'], IOQ3, 'a pose\'s parent is byte-swapped and never used: frames are composed with the joints\' parents', Q3_IQM('524, 1205-1216')),
  p('iqm-pose-count', IOQ3, IOQUAKE3.iqm?.posesMatchJoints?.fact),
  c('iqm-pose-mask-reserved', IOQ3, 'only mask bits 0x001 to 0x200 read a channel; other bits are ignored', Q3_IQM('892-923')),
  c(['iqm-framechannels-short', 'iqm-framechannels-extra'], IOQ3, 'num_framechannels is never used: the frames are read as one stream, each pose taking one value per set mask bit, frame after frame; more channels per frame in the file than the masks set shifts every frame after the first, fewer reads past the frame data', Q3_IQM('884-923')),
  c('iqm-blend-index-range', IOQ3, 'skinning reads the joint matrix at 12 × index with no check, from an array of 128 joints: an index past num_joints reads a matrix not set for this model, one past 127 reads past the array', Q3_IQM('1256, 1336-1365')),
  c('iqm-weights-zero', IOQ3, 'a vertex whose first weight is 0 is not skinned (identity matrix): it stays in the bind pose while the rest of the mesh moves', Q3_IQM('1319-1332')),
  c('iqm-weights-sum', IOQ3, 'weights are used as stored (ubyte ones / 255), not renormalised: a sum other than 1 scales the vertex toward or away from the origin', Q3_IQM('1307-1317, 1336-1365')),
  c(['iqm-weight-negative', 'iqm-weight-index-unweighted'], IOQ3, 'the slots end at the first weight of 0 or below: the later slots are skipped (the first one: the vertex is not skinned)', Q3_IQM('1319, 1349-1352')),
  c('iqm-joint-quat', IOQ3, 'the bind rotation is normalised before use; a zero quaternion becomes (0, 0, 0, -1)', Q3_IQM('142-162, 858')),
  c('iqm-frame-quat', IOQ3, 'each frame\'s rotation is normalised before use', Q3_IQM('926')),
  c('iqm-joint-scale-zero', IOQ3, 'the inverse bind matrix divides by each row\'s squared length: a zero scale divides by zero and the joint\'s vertices become infinite or NaN', Q3_IQM('95-97, 861')),
  c('iqm-bounds-contain', IOQ3, 'the model is culled by the union of the boxes of the two frames it blends: vertices outside the box vanish while the box is off screen', Q3_IQM('979-988')),
  c('iqm-bounds-radius', IOQ3, 'only the box of each frame is copied; the radius is not read', Q3_IQM('933-949')),
  c(['iqm-anim-range', 'iqm-anim-empty', 'iqm-anim-framerate', 'iqm-anim-flags', 'iqm-anim-name-duplicate', 'iqm-frames-no-anims'], IOQ3, 'the renderer does not read the animations (num_anims and ofs_anims are only byte-swapped): the game picks frame numbers, and a frame at or past num_frames is drawn as frame 0', Q3_IQM('233-234, 1085-1094')),
  c('iqm-header-flags', IOQ3, 'the flags are byte-swapped and never used', Q3_IQM('218')),
  c(['iqm-comment-unterminated', 'iqm-extension-loop', 'iqm-extension-count', 'iqm-fte-mesh-size'], IOQ3, 'the comment and the extensions are not read (their header fields are only byte-swapped)', Q3_IQM('239-242')),
  c('iqm-vertex-nonfinite', IOQ3, 'positions, normals, texture coordinates and colours are copied as stored, unchecked', Q3_IQM('737-766')),
  c('iqm-normal-unit', IOQ3, 'each normal is multiplied by the skinning matrix (or copied, unskinned) as stored, not renormalised', Q3_IQM('1409-1420, 1434-1436')),
  c(['iqm-tangent-unit', 'iqm-tangent-w'], IOQ3, 'the OpenGL 1 renderer drops the tangent array', Q3_IQM('377-378')),
  c('iqm-joint-nonfinite', IOQ3, 'the bind pose is made into a matrix and inverted as stored, unchecked', Q3_IQM('858-861')),
  c('iqm-pose-nonfinite', IOQ3, 'each pose\'s channel offsets and scales are used as stored to decode every frame, unchecked', Q3_IQM('892-923')),
  c(['iqm-bounds-nonfinite', 'iqm-bounds-inverted'], IOQ3, 'the boxes are copied as stored and cull the model unchecked: the result of culling against them is the only use', Q3_IQM('933-949, 979-988')),
  c('iqm-triangle-unowned', IOQ3, 'each surface draws only the triangles of its mesh\'s range: a triangle in no mesh is never drawn', Q3_IQM('1446-1454')),
  c('iqm-vertex-unused', IOQ3, 'every vertex of a mesh\'s range is skinned each frame, used by a triangle or not', Q3_IQM('1383-1421')),
  c('iqm-frames-without-poses', IOQ3, 'frames are decoded only through the poses: without poses the model stays in its bind pose', Q3_IQM('880-930')),
  c('iqm-mesh-material-empty', IOQ3, 'each mesh\'s material is looked up as a shader; a name with no shader or image gets the default shader', Q3_IQM('706-708')),

  // --- IQM: other engines (their profiles' facts, and the rows read for the validator before) ---
  p('iqm-filesize', FTE.name, FTE.iqm?.exactFileSize?.fact),
  p('iqm-version', FTE.name, FTE.iqm?.version.fact),
  p('iqm-version', DARKPLACES.name, DARKPLACES.iqm?.version.fact),
  p('iqm-version', GZDOOM.name, GZDOOM.iqm?.version.fact),
  p('iqm-joint-parent-order', DARKPLACES.name, DARKPLACES.iqm?.parentsFirst?.fact),
  p('iqm-joint-parent-order', DAEMON.name, DAEMON.iqm?.parentsFirst?.fact),
  p('iqm-joint-parent-order', UZDOOM.name, UZDOOM.iqm?.parentsFirst?.fact),
  p('iqm-pose-count', FTE.name, FTE.iqm?.posesMatchJoints?.fact),
  c(['iqm-array-components', 'iqm-array-format-unusual'], DARKPLACES.name, 'position, texcoord, normal and tangent arrays are used only as float × 3, × 2, × 3, × 4; any other format or size is skipped (no position or texcoord: no geometry)', DP_IQM_AT('Mod_INTERQUAKEMODEL_Load, offset ≈140300')),
  p(['iqm-array-components', 'iqm-array-format-unusual'], GZDOOM.name, GZDOOM.iqm?.arrays.position?.fact),
  p('iqm-position-missing', FTE.name, FTE.iqm?.required?.fact),
  p('iqm-position-missing', DARKPLACES.name, DARKPLACES.iqm?.required?.fact),
  p('iqm-blend-incomplete', FTE.name, FTE.iqm?.requiredWhenSkinned?.fact),
  p('iqm-blend-incomplete', DARKPLACES.name, DARKPLACES.iqm?.requiredWhenSkinned?.fact),
  p('iqm-anim-empty', DAEMON.name, DAEMON.iqm?.emptyAnimation?.fact),

  // --- IQM: the SDK's demo loader (demo.cpp, loadiqm, loadiqmmeshes, loadiqmanims, animateiqm) ---
  c('iqm-version', SDK, 'only IQM_VERSION (2) is loaded ("error while loading")', SDK_DEMO('199-200')),
  c('iqm-filesize', SDK, 'the file is read up to the header\'s filesize: fewer bytes fail the load, more are ignored', SDK_DEMO('203-205')),
  c(['iqm-block-out-of-file', 'iqm-block-in-header'], SDK, 'no offset or count is checked: arrays, triangles, meshes, joints, poses, animations and frames are read at their offsets in a buffer of filesize bytes', SDK_DEMO('55-59, 74-93, 135-149')),
  c(['iqm-array-components', 'iqm-array-format-unusual'], SDK, 'position and normal must be float × 3, tangent float × 4, texcoord float × 2, blendindexes, blendweights and color ubyte × 4, or the load fails (float weights too)', SDK_DEMO('81-87')),
  c('iqm-text-offset', SDK, 'mesh names and materials are read at their text offsets unchecked', SDK_DEMO('112-113')),
  c(['iqm-joint-parent-range', 'iqm-joint-parent-order', 'iqm-joint-cycle'], SDK, 'a joint\'s bind matrix is multiplied by its parent\'s, unchecked: a parent past the table reads past the array, one listed later is not computed yet', SDK_DEMO('102-106')),
  c('iqm-pose-count', SDK, 'with animations, num_poses must equal num_joints or the load fails', SDK_DEMO('122, 208')),
  c('iqm-pose-parent-mismatch', SDK, 'frames are composed with the pose\'s parent, the animated skeleton with the joint\'s: a pose whose parent differs mixes two hierarchies', SDK_DEMO('175, 239')),
  c('iqm-pose-mask-reserved', SDK, 'only mask bits 0x01 to 0x200 read a channel', SDK_DEMO('158-167')),
  c(['iqm-framechannels-short', 'iqm-framechannels-extra'], SDK, 'num_framechannels only sizes the byte swap: the frames are read as one stream, each pose taking one value per set mask bit, so a different count shifts or overruns the frames', SDK_DEMO('137, 151-167')),
  c(['iqm-joint-quat', 'iqm-frame-quat'], SDK, 'bind and frame rotations are normalised before use', SDK_DEMO('100, 174')),
  c('iqm-blend-index-range', SDK, 'skinning reads the joint matrix at each blend index unchecked', SDK_DEMO('257-259')),
  c(['iqm-weights-sum', 'iqm-weight-index-unweighted'], SDK, 'weights are taken to sum to 255 (its comment) and used as stored / 255; the slots end at the first weight of 0', SDK_DEMO('249-259')),
  c('iqm-anim-range', SDK, 'animations are only listed by name: frames are played by number, wrapped modulo num_frames', SDK_DEMO('180-184, 229-230')),
  c(['iqm-adjacency-index', 'iqm-adjacency-mismatch'], SDK, 'the adjacency is byte-swapped and kept, not used', SDK_DEMO('59, 93')),

  // --- IQM: GZDoom (models_iqm.cpp, counted from its first, empty, line) ---
  c(['iqm-block-out-of-file', 'iqm-block-in-header'], GZDOOM.name, 'every table is read through IQMFileReader from its offset (SeekTo); a read error (IQMReadErrorException) makes Load return false: the model is not loaded (the reader\'s own bounds check, in model_iqm.h, was not read)', GZ_IQM('84, 266-269')),
  c('iqm-filesize', GZDOOM.name, 'the header\'s filesize is read and not used', GZ_IQM('39')),
  c('iqm-text-unterminated', GZDOOM.name, 'the text table\'s last byte is overwritten with a NUL (a table of 0 bytes: the model is not loaded), so a last name without one loses its last character', GZ_IQM('66-72')),
  c('iqm-joint-quat', GZDOOM.name, 'the bind rotation is made unit (MakeUnit)', GZ_IQM('124')),
  c('iqm-frame-quat', GZDOOM.name, 'each frame\'s rotation is made unit (MakeUnit)', GZ_IQM('197')),
  c(['iqm-joint-parent-range', 'iqm-joint-parent-order', 'iqm-joint-cycle'], GZDOOM.name, 'the bind matrix starts from the parent\'s, unchecked: a parent listed later is not computed yet, one past the table is read past the array', GZ_IQM('165-171')),
  c(['iqm-pose-parent-range', 'iqm-pose-parent-order', 'iqm-pose-cycle', 'iqm-pose-parent-mismatch'], GZDOOM.name, 'a pose\'s parent is read and not used by Load', GZ_IQM('133')),
  c(['iqm-framechannels-short', 'iqm-framechannels-extra'], GZDOOM.name, 'num_framechannels is read and never used: frames are read as one stream, each pose taking one value per set mask bit, so a different count shifts the frames (or runs past the file: not loaded)', GZ_IQM('58, 179-208')),
  c('iqm-pose-mask-reserved', GZDOOM.name, 'only mask bits 0x01 to 0x200 read a channel', GZ_IQM('188-202')),
  c('iqm-frames-without-poses', GZDOOM.name, 'with no frames, the joints\' bind pose is made the one frame', GZ_IQM('211-239')),
  c(['iqm-anim-name-duplicate', 'iqm-anim-range'], GZDOOM.name, 'a MODELDEF frame name finds the first animation whose name starts with it (strnicmp over the name\'s length) and returns its first frame plus the offset, without checking the animation\'s range against num_frames: a second animation of the same name is never found', GZ_IQM('431-448')),
  c('iqm-mesh-material-empty', GZDOOM.name, 'a mesh with no MODELDEF skin or SurfaceSkin and no texture found for its material is not drawn', GZ_IQM('480-494')),
  c(['iqm-mesh-triangle-range', 'iqm-triangle-unowned'], GZDOOM.name, 'each mesh draws its own triangle range from the index buffer, unchecked; a triangle in no mesh is not drawn', GZ_IQM('503')),
  c('iqm-triangle-index', GZDOOM.name, 'the triangles are copied into the index buffer as stored, unchecked', GZ_IQM('521-522')),

  // --- IQM: Red Eclipse (iqm.h) ---
  c('iqm-filesize', RE, 'the file is read up to the header\'s filesize: fewer bytes fail the load, more are ignored', RE_IQM('344-345')),
  c(['iqm-block-out-of-file', 'iqm-block-in-header'], RE, 'the tables are found at their offsets in a buffer of filesize bytes, unchecked', RE_IQM('137-139, 270-273')),
  c(['iqm-mesh-vertex-range', 'iqm-mesh-triangle-range'], RE, 'a mesh\'s vertices and triangles are read from its first_vertex and first_triangle on, unchecked', RE_IQM('191-199, 240-241')),
  c('iqm-triangle-outside-mesh', RE, 'triangle corners are rebased by the mesh\'s first_vertex, unchecked: a corner outside the mesh indexes outside the mesh\'s own vertices', RE_IQM('244-246')),
  c('iqm-mesh-empty', RE, 'a mesh with no triangles or no vertices is dropped ("Empty mesh in …")', RE_IQM('249-255')),
  c('iqm-text-offset', RE, 'joint, mesh and animation names are read at their text offsets, unchecked', RE_IQM('151, 176, 280')),
  c(['iqm-joint-parent-range', 'iqm-joint-parent-order', 'iqm-joint-cycle'], RE, 'a joint\'s bind pose is multiplied by its parent\'s, unchecked: a parent listed later is not computed yet, one past the table reads past the bones', RE_IQM('160')),
  c('iqm-joint-quat', RE, 'the bind rotation is normalised', RE_IQM('158')),
  c('iqm-frame-quat', RE, 'each frame\'s rotation is normalised', RE_IQM('311')),
  c(['iqm-pose-parent-range', 'iqm-pose-parent-mismatch'], RE, 'a frame is composed with the bind pose of the pose\'s parent (unchecked), while the skeleton\'s bones link by the joints\' parents', RE_IQM('152, 323-324')),
  c('iqm-pose-count', RE, 'frames are decoded for every joint with the pose of the same number: fewer poses than joints reads past the poses', RE_IQM('299-301')),
  c(['iqm-anim-range', 'iqm-framechannels-short', 'iqm-framechannels-extra'], RE, 'an animation\'s frames are read from first_frame × num_framechannels on, unchecked against num_frames, and then one value per set mask bit, frame after frame: a num_framechannels other than the masks\' count reads every frame after an animation\'s first from the wrong place', RE_IQM('295-317')),
  c('iqm-anim-name-duplicate', RE, 'an animation whose name (file:name) is already loaded is skipped', RE_IQM('281-282')),

  // --- MD3: ioquake3 (tr_model.c) ---
  c('md3-version', IOQ3, 'a version other than 15: "R_LoadMD3: … has wrong version (… should be 15)", the model is not loaded', Q3_MD3('388-393')),
  c('md3-eof', IOQ3, 'OFS_EOF bytes are allocated and copied from the file\'s buffer with no check against the file\'s size (R_LoadMD3 is not given it): larger than the file, it reads past the buffer; smaller, the blocks after it are read from past the copy', Q3_MD3('396-399')),
  c('md3-no-frames', IOQ3, 'no frames: "R_LoadMD3: … has no frames", the model is not loaded', Q3_MD3('411-414')),
  c('md3-surface-renderer-limit', IOQ3, 'a surface with SHADER_MAX_VERTEXES (1000) or more vertices, or whose triangles × 3 reach SHADER_MAX_INDEXES (6000): "R_LoadMD3: … has more than 999 verts on …" (or "… 1999 triangles on …"), the whole model is not loaded', Q3_MD3('454-465')),
  c('md3-count-negative', IOQ3, 'only numFrames is checked (below 1: not loaded); a negative tag or surface count makes its loop read nothing', Q3_MD3('411, 429, 440')),
  p('md3-count-limit', IOQ3, IOQUAKE3.md3?.formatLimits?.fact),
  c(['md3-block-out-of-file', 'md3-block-in-header'], IOQ3, 'frames, tags and surfaces are found at their offsets inside the OFS_EOF bytes copied, with no check', Q3_MD3('417, 428, 439')),
  c('md3-nonfinite', IOQ3, 'frames (bounds, origin, radius), tags and texture coordinates are byte-swapped as stored, unchecked', Q3_MD3('416-436, 501-506')),
  c('md3-surface-ident', IOQ3, 'a surface\'s ident is overwritten (SF_MD3), never checked: a wrong one alone changes nothing; it shows the walk by OFS_END went astray', Q3_MD3('468')),
  c('md3-surface-end', IOQ3, 'the next surface is found at this one\'s start + OFS_END, unchecked', Q3_MD3('521')),
  c('md3-surface-frames', IOQ3, 'a surface\'s own frame count only sizes the byte swap of its vertices; R_LoadMD3 does not compare it with the header\'s', Q3_MD3('510')),
  c('md3-triangle-index', IOQ3, 'triangle indexes are byte-swapped, never checked against the surface\'s vertex count', Q3_MD3('494-499')),
  c('md3-name-unterminated', IOQ3, 'a surface name is lower-cased and measured with strlen with no bound: a name that fills its 64 bytes runs on into the surface\'s counts', Q3_MD3('471, 475')),
  c('md3-surface-no-shader', IOQ3, 'a surface with no shader is drawn with the default shader, unless the entity has a custom shader or a .skin names one', Q3_MESH('375-376')),
  c('md3-bounds-radius', IOQ3, 'the model is culled first by the sphere of the frame\'s radius around its local origin (both frames\' when it blends two): a radius that does not reach the vertices makes the model vanish while part of it is on screen', Q3_MESH('87-136')),
  c('md3-bounds-contain', IOQ3, 'where the sphere test does not decide, the model is culled by the union of the two frames\' boxes: vertices outside it vanish while the box is off screen', Q3_MESH('138-156')),
  c('md3-bounds-inverted', IOQ3, 'the frame\'s radius and box are used as stored to cull the model, unchecked', Q3_MESH('87-156')),

  // --- MD3: other engines ---
  p('md3-version', DARKPLACES.name, DARKPLACES.md3?.version?.fact),
  p('md3-surface-frames', DARKPLACES.name, DARKPLACES.md3?.surfaceFrames?.fact),
  p(['md3-version', 'md3-count-negative', 'md3-count-limit', 'md3-surface-renderer-limit', 'md3-block-out-of-file'], GZDOOM.name, GZDOOM.md3?.notes?.unchecked),
  p('md3-no-frames', GZDOOM.name, GZDOOM.md3?.notes?.frameRange),
  c('md3-surface-frames', GZDOOM.name, 'each surface\'s vertices are read for the model\'s (the header\'s) frame count; the surface\'s own count is not read', GZ_MD3('223-225')),
  c('md3-triangle-index', GZDOOM.name, 'triangle indexes go into the index buffer as stored, unchecked', GZ_MD3('206-209, 288')),
  c(['md3-surface-end', 'md3-surface-ident'], GZDOOM.name, 'the next surface is read at this one\'s start + OFS_END, and its ident is not checked', GZ_MD3('155-161, 198-200')),
  p('md3-surface-no-shader', GZDOOM.name, GZDOOM.md3?.notes?.unskinned),

  // --- MD3: Red Eclipse (md3.h) ---
  p('md3-version', RE, REDECLIPSE.md3?.version?.fact),
  c(['md3-block-out-of-file', 'md3-block-in-header'], RE, 'surfaces, their triangles, texture coordinates and vertices, and the tags are read at their offsets (seek, read), unchecked', RE_MD3('83-84, 91, 102-103, 107, 132')),
  c('md3-count-negative', RE, 'the counts size the arrays unchecked (new tri[numtriangles], new tcvert[numvertices])', RE_MD3('89-90, 100-101')),
  c('md3-surface-ident', RE, 'a surface\'s id is read and not checked (only the file\'s IDP3 is)', RE_MD3('64, 84')),
  c('md3-surface-end', RE, 'the next surface is read at this one\'s start + OFS_END, unchecked', RE_MD3('125')),
  c('md3-surface-frames', RE, 'each surface\'s vertices are read for the header\'s frame count; the surface\'s own count is not used', RE_MD3('106-108')),
  c('md3-triangle-index', RE, 'triangle indexes are cast to ushort, unchecked against the surface\'s vertex count', RE_MD3('97')),
  c('md3-tag-name-mismatch', RE, 'tag names are taken from frame 0 only; the names in later frames are ignored', RE_MD3('139')),
  c(['md3-normal-byte-order', 'md3-normals-zero'], RE, 'a normal\'s low byte is its zenith (z = cos) and its high byte its azimuth: a 0 word points straight up (+Z)', RE_MD3('118-122')),
  c('md3-name-unterminated', RE, 'surface and tag names are copied up to their NUL (newstring): a name that fills its 64 bytes runs on into the fields after it', RE_MD3('87, 139')),
  p('md3-surface-no-shader', RE, REDECLIPSE.md3?.shadersIgnored?.fact),

  // --- DPM: DarkPlaces (read for the validator before; model_alias.c is too long to count) ---
  c('dpm-type', DARKPLACES.name, 'a type other than 2 stops the load with Host_Error ("only type 2 (hierarchical skeletal pose) models are currently supported")', DPM_AT),
  c(['dpm-bone-parent-order', 'dpm-bone-parent-range', 'dpm-bone-cycle'], DARKPLACES.name, 'a bone whose parent is not before it (`parent >= i`, which a parent past the table and every cycle also are) stops the load with Host_Error', DPM_AT),
  c('dpm-no-frames', DARKPLACES.name, 'no frames (or no bones or meshes): "has no frames" ("has no geometry") is printed and the model is not loaded', DPM_AT),
  c('dpm-weights-sum', DARKPLACES.name, 'the rest-pose mesh is built from every influence as stored; for animation the 4 largest are kept and rescaled to sum to 255 (Mod_Skeletal_CompressBlend)', DPM_AT),
  c(['dpm-block-out-of-file', 'dpm-influence-bone'], DARKPLACES.name, 'the header\'s and meshes\' offsets and the influences\' bone numbers are used without a check against the file\'s size or the bone count (`pbase + ofs`, `bonepose + 12 * boneindex`)', DPM_AT),
];

/** The citations of one code, in table order. */
export function citationsOf(code: ValidationCode): CodeCitation[] {
  return CODE_CITATIONS.filter((e) => e.codes.includes(code));
}
