// The validator's codes: one table, stable names (never renamed or reused), each with its kind,
// its default severity and one line on what it means. docs/VALIDATION.md lists them with what
// engines do with each problem; `--config` and the iqmTools.validation.* settings change severities.

import type { Severity } from '../iqe/diagnostic';

/** glTF-Validator's kinds that apply to our binary formats. */
export type IssueKind = 'structure' | 'link' | 'data' | 'semantic';

interface CodeEntry {
  kind: IssueKind;
  severity: Severity;
  summary: string;
}

const s = (kind: IssueKind, severity: Severity, summary: string): CodeEntry => ({ kind, severity, summary });

export const VALIDATION_CODES = {
  // IQM: structure
  'iqm-header-truncated': s('structure', 'error', 'the file is shorter than the 124-byte header'),
  'iqm-version': s('structure', 'error', 'a version other than 1 or 2'),
  'iqm-filesize': s('structure', 'warning', "the header's filesize is not the file's size"),
  'iqm-header-flags': s('structure', 'information', 'the header sets flags, none of which is defined'),
  'iqm-block-in-header': s('structure', 'error', "a block's offset points into the header"),
  'iqm-block-out-of-file': s('structure', 'error', 'a block (or a vertex array, an extension) runs past the end of the file'),
  'iqm-block-misaligned': s('structure', 'warning', 'a block is not aligned as iqm.txt requires'),
  'iqm-block-overlap': s('structure', 'error', 'two blocks share bytes'),
  'iqm-array-format': s('structure', 'error', 'a vertex array format that does not exist'),
  'iqm-array-size': s('structure', 'error', 'a vertex array with 0 or more than 4 components'),
  'iqm-array-type-reserved': s('structure', 'warning', 'a vertex array of a reserved type (7 to 15)'),
  'iqm-array-duplicate': s('structure', 'warning', 'a second array of a standard type'),
  'iqm-array-components': s('structure', 'warning', 'a standard array with the wrong number of components'),
  'iqm-array-format-unusual': s('structure', 'warning', 'a standard array in a format engines do not read for it'),
  'iqm-position-missing': s('structure', 'error', 'vertices but no position array'),
  'iqm-blend-incomplete': s('structure', 'warning', 'blend indexes without weights, or weights without indexes'),
  'iqm-framechannels-short': s('structure', 'error', 'the poses animate more channels than num_framechannels'),
  'iqm-framechannels-extra': s('structure', 'warning', 'num_framechannels is more than the poses animate'),
  // IQM: link
  'iqm-text-first': s('link', 'warning', 'the text table does not start with a NUL (offset 0 is not "")'),
  'iqm-text-unterminated': s('link', 'warning', 'the text table does not end with a NUL'),
  'iqm-text-offset': s('link', 'error', 'a name offset outside the text table'),
  'iqm-text-no-nul': s('link', 'error', 'a name runs to the end of the text table without a NUL'),
  'iqm-mesh-vertex-range': s('link', 'error', "a mesh's vertices are past num_vertexes"),
  'iqm-mesh-triangle-range': s('link', 'error', "a mesh's triangles are past num_triangles"),
  'iqm-mesh-vertex-overlap': s('link', 'error', 'two meshes share vertices'),
  'iqm-mesh-triangle-overlap': s('link', 'error', 'two meshes share triangles'),
  'iqm-triangle-index': s('link', 'error', 'a triangle names a vertex past num_vertexes'),
  'iqm-triangle-outside-mesh': s('link', 'warning', "a triangle uses a vertex outside its mesh's vertex range"),
  'iqm-adjacency-index': s('link', 'error', 'an adjacency entry names a triangle past num_triangles'),
  'iqm-adjacency-mismatch': s('data', 'warning', 'an adjacency entry names a triangle that does not share the edge'),
  'iqm-joint-parent-range': s('link', 'error', "a joint's parent is past num_joints"),
  'iqm-joint-parent-order': s('link', 'warning', "a joint's parent comes after it"),
  'iqm-joint-cycle': s('link', 'error', 'joints whose parents form a cycle'),
  'iqm-pose-parent-range': s('link', 'error', "a pose's parent is past num_poses"),
  'iqm-pose-parent-order': s('link', 'warning', "a pose's parent comes after it"),
  'iqm-pose-cycle': s('link', 'error', 'poses whose parents form a cycle'),
  'iqm-pose-parent-mismatch': s('link', 'warning', "a pose's parent is not its joint's parent"),
  'iqm-pose-count': s('link', 'warning', 'num_poses is neither 0 nor num_joints'),
  'iqm-pose-mask-reserved': s('link', 'warning', "a pose's channel mask sets bits past its channels"),
  'iqm-blend-index-range': s('link', 'error', 'a weighted blend index past the joints'),
  'iqm-blend-without-joints': s('link', 'warning', 'blend data but no joints or poses'),
  'iqm-anim-range': s('link', 'error', "an animation's frames are past num_frames"),
  'iqm-extension-loop': s('link', 'error', 'the extension list loops'),
  'iqm-extension-count': s('link', 'warning', 'the extension list is longer or shorter than num_extensions'),
  'iqm-fte-mesh-size': s('link', 'warning', 'FTE_MESH does not hold one record per mesh'),
  'iqm-comment-unterminated': s('link', 'warning', 'the comment does not end with a NUL'),
  // IQM: data
  'iqm-vertex-nonfinite': s('data', 'error', 'NaN or an infinity in a vertex array'),
  'iqm-normal-unit': s('data', 'warning', 'a normal that is not unit length'),
  'iqm-tangent-unit': s('data', 'warning', 'a tangent whose xyz is not unit length'),
  'iqm-tangent-w': s('data', 'warning', "a tangent's w (bitangent sign) that is not ±1"),
  'iqm-weight-negative': s('data', 'error', 'a negative blend weight'),
  'iqm-weights-zero': s('data', 'warning', 'a vertex (that a triangle uses) with no blend weight'),
  'iqm-weights-sum': s('data', 'warning', 'blend weights that do not sum to 1 (255)'),
  'iqm-weight-index-unweighted': s('data', 'information', 'a blend slot with a non-zero index and weight 0'),
  'iqm-triangle-degenerate': s('data', 'warning', 'a triangle that repeats a vertex'),
  'iqm-triangle-duplicate': s('data', 'warning', 'two triangles with the same vertices'),
  'iqm-joint-nonfinite': s('data', 'error', "NaN or an infinity in a joint's bind pose"),
  'iqm-joint-quat': s('data', 'warning', "a joint's bind rotation is not a unit quaternion"),
  'iqm-joint-scale-zero': s('data', 'warning', "a joint's bind scale has a zero"),
  'iqm-pose-nonfinite': s('data', 'error', "NaN or an infinity in a pose's channel offset or scale"),
  'iqm-frame-nonfinite': s('data', 'error', 'a frame decodes to NaN or an infinity'),
  'iqm-frame-quat': s('data', 'warning', 'a frame decodes to a rotation that is not a unit quaternion'),
  'iqm-bounds-nonfinite': s('data', 'error', "NaN or an infinity in a frame's bounds"),
  'iqm-bounds-inverted': s('data', 'error', 'bounds with mins past maxs or a negative radius'),
  'iqm-bounds-contain': s('data', 'warning', "a frame's box does not contain its skinned vertices"),
  'iqm-bounds-radius': s('data', 'warning', "a frame's radius (or xy radius) does not reach its skinned vertices"),
  // IQM: semantic
  'iqm-name-control': s('semantic', 'warning', 'a name with a control byte'),
  'iqm-mesh-empty': s('semantic', 'warning', 'a mesh without triangles'),
  'iqm-mesh-material-empty': s('semantic', 'information', 'a mesh without a material name'),
  'iqm-triangle-unowned': s('semantic', 'warning', 'a triangle in no mesh'),
  'iqm-vertex-unused': s('semantic', 'warning', 'a vertex no triangle uses'),
  'iqm-joint-name-duplicate': s('semantic', 'warning', 'two joints with one name'),
  'iqm-joint-unused': s('semantic', 'information', 'a joint that weights no vertex and is the parent of none that does'),
  'iqm-frames-without-poses': s('semantic', 'warning', 'frames but no poses'),
  'iqm-frames-no-anims': s('semantic', 'information', 'frames that no animation names'),
  'iqm-anim-empty': s('semantic', 'warning', 'an animation without frames'),
  'iqm-anim-framerate': s('semantic', 'warning', 'an animation whose frame rate is 0, negative or not finite'),
  'iqm-anim-flags': s('semantic', 'information', 'animation flags other than IQM_LOOP'),
  'iqm-anim-name-duplicate': s('semantic', 'warning', 'two animations with one name'),
  'iqm-nothing': s('semantic', 'warning', 'no meshes, joints, poses or animations'),
} as const satisfies Record<string, CodeEntry>;

export type ValidationCode = keyof typeof VALIDATION_CODES;
