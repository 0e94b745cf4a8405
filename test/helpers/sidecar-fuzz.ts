// Mutation fuzzing of the files beside a model (.skin, Q3 .shader, .framegroups, animation.cfg) and
// of GZDoom's MODELDEF (checked against the fuzz folder as its mod root),
// which `check`, the language server and the preview read, and of the images the preview decodes
// (TGA) or the engine checks size (TGA, PNG, JPEG). Texts are mutated as the compile's sources are
// (source-fuzz.ts mutateLines: a line repeated thousands of times shows work that grows with the
// square of the lines), images as the binary models are (model-fuzz.ts mutate).
// Oracles. Sidecars (exerciseSidecar): the check (against models and files kept in memory), the
// hover and code lens data, and the preview's use of the file (its clips over a model, the skin
// chosen, each mesh's texture names) never throw; every diagnostic is on a line of the text, with a
// message of one printable line (a name's control characters escaped, a long name cut); no texture
// path over MAX_TEXTURE_PATH is looked up; every clip the check and the preview play lies within the
// model's frames at a finite rate of at most MAX_SIDECAR_FPS. Images (exerciseImage):
// reading the size never throws; decoding a TGA throws only FormatError with its offset; the
// decoded image is width x height RGBA, and the decoder holds nothing more (`owned` is what it
// holds beyond that: RLE lets a small file declare a large image, which is the image's due).
import { FormatError } from '../../core/binary';
import { imageSize } from '../../core/image/size';
import { decodeTga } from '../../core/image/tga';
import type { Model } from '../../core/model/model';
import { readModel } from '../../core/formats/models';
import { textureExtensions } from '../../core/engines/textures';
import { modelClips } from '../../core/lookup/clips';
import { chooseSkin, textureNames } from '../../core/lookup/meshTextures';
import { checkSidecar, type SidecarIo } from '../../core/sidecarCheck/check';
import { sidecarKind, type SidecarKind } from '../../core/lookup/companions';
import { isModeldefName } from '../../core/sidecar/modeldef';
import { checkModeldef } from '../../core/sidecarCheck/modeldef';
import { modeldefCodeLenses, modeldefCompletions, modeldefHover } from '../../server/modeldef';
import { clipAtLine, clipHover, type ModelSummary } from '../../core/sidecarCheck/lint';
import { md3 } from './engine-models';
import { checkWithinLines, cpuMs, type IqeExercise } from './iqe-fuzz';
import { mutateLines } from './source-fuzz';
import { MAX_TEXTURE_PATH } from '../../core/lookup/textures';
import { MAX_SIDECAR_FPS } from '../../core/sidecar/text';

/** Where the fuzzed file lies: a Quake 3 player's folder under a game folder. */
const FOLDER = '/game/models/players/fuzz';
/** The files the in-memory io has, by path. */
const FILES = new Set([`${FOLDER}/skin.tga`, '/game/textures/base/wall.jpg', '/game/textures/base/floor.tga', `${FOLDER}/m.iqm`, '/game/scripts/fuzz.shader']);
const EXTENSIONS = textureExtensions([]);
/** Frames of every model the sidecars are checked against (a Quake 3 player has a few hundred). */
const FRAMES = 60;

const SCRIPT = 'textures/base/wall\n{\n  surfaceparm nomarks\n  {\n    map textures/base/wall.tga\n    blendFunc GL_ONE GL_ONE\n  }\n}\n';

/** Lines a mutation inserts, by kind of file. */
const VOCABULARY: Record<string, string[]> = {
  skin: ['u_torso,models/players/fuzz/skin.tga', 'tag_head,', 'h_head,textures/base/wall', 'replace body textures/base/floor', ',', 'a,b,c', 'tag_', '// c', 'body , skin'],
  shader: ['{', '}', 'textures/base/x', 'map $lightmap', 'map textures/base/floor.tga', 'animMap 10 a.tga b.tga', 'clampmap x.tga', 'blendFunc add', 'blendfunc GL_DST_COLOR GL_ZERO', '/*', '*/', 'surfaceparm trans'],
  framegroups: ['0 10 10 1 idle', '0 0', '-5 3', '1e9 1', '10 -1 0 0', '5 5 nan 1 x', '// 0 1', '/* 0 1 */', '59 99 20 1 past', 'a b'],
  animcfg: ['sex m', 'headoffset 0 0 0', 'footsteps boot', 'fixedlegs', '0 30 0 25', '0 -5 0 25', '29 1 1 0', '10 5 99 15', 'unknown', '// BOTH_DEATH1'],
  modeldef: ['Model Fuzz', '{', '}', 'Model 0 "m.iqm"', 'Model 300 "m.iqm"', 'Path "../x"', 'Frame TROO A 0 "idle:3"', 'Frame TROO B 0 ":99"', 'FrameIndex TROO C 0 99', 'FrameIndex T D -1 0', 'Skin 0 "skin.tga"', 'SurfaceSkin 0 40 "x"', '#include "modeldef.txt"', '"', '/*', '; c', 'Scale 1 1', 'Rotating', 'Offset 1e999 0 0'],
};

/** Small seeds of each kind, generated here (the real files are added by the caller). */
export function generatedSidecarSeeds(): { name: string; bytes: Uint8Array }[] {
  const rows = Array.from({ length: 25 }, (_, i) => `${2 * i} 2 ${i % 3} ${10 + i}`);
  const texts: [string, string][] = [
    ['m.iqm_0.skin', 'body,models/players/fuzz/skin.tga\nhead,textures/base/wall\ntag_head,\ntag_weapon,\nreplace legs textures/base/floor\n'],
    ['lower_default.skin', 'l_legs,models/players/fuzz/skin\ntag_torso,\n'],
    ['fuzz.shader', `${SCRIPT}models/players/fuzz/skin\n{\n  {\n    map models/players/fuzz/skin.tga\n    rgbGen lightingDiffuse\n  }\n  {\n    animMap 8 textures/base/wall.tga textures/base/floor.tga\n  }\n}\n`],
    ['m.iqm.framegroups', '0 10 10 1 idle // standing\n10 20 15 1 run\n30 5\n35 25 20 0 death\n5 10 10 1 overlaps\n'],
    ['animation.cfg', `sex m\nfootsteps normal\nheadoffset 0 0 0\n${rows.join('\n')}\n`],
    ['modeldef.txt', '#include "modeldef.txt"\nModel FuzzActor\n{\n  Path ""\n  Model 0 "m.iqm"\n  Skin 0 "skin"\n  Scale 1 1 1\n  Frame FUZZ A 0 "idle"\n  Frame FUZZ B 0 "run:2"\n  FrameIndex FUZZ C 0 40\n  FrameIndex FUZZ D 1 0\n}\n'],
  ];
  return texts.map(([name, text]) => ({ name, bytes: Buffer.from(text, 'latin1') }));
}

/** Numbers no clip plays at, or that parse to no finite value (what found issue 31's `framerate Infinity`). */
const ODD_NUMBERS = ['1e308', '1e309', '-1e309', '-1e308', `1${'0'.repeat(400)}`, '1e-400', '1000000', '1000.5', 'NaN', 'inf', '-0'];
/** Characters a name should never print raw (a newline in an MD3 tag's name split a warning in two). */
const CONTROLS = ['\u0000', '\u0001', '\u0007', '\u000b', '\u000c', '\u001b[31m', '\u007f', '\u0085', '\u009b', '\u2028', '"', '\\'];

/**
 * What the line mutations do not make: a texture path of up to 500,000 folders (issue 31: a skin
 * of 750,000 took 2.3 s and 335 MB to check), a number replaced by an odd one, a control character
 * in a name or comment.
 */
function mutateSidecarWords(kind: string, text: string, pick: (n: number) => number): { text: string; what: string } {
  const lines = text.split('\n');
  const at = pick(lines.length);
  switch (pick(3)) {
    case 0: {
      const folders = 5000 + pick(495_000);
      const path = `${'a/'.repeat(folders)}x.tga`;
      lines.splice(at, 0, kind === 'shader' ? `x\n{\n  {\n    map ${path}\n  }\n}` : kind === 'skin' ? `body,${path}` : kind === 'modeldef' ? `Model 0 "${path}"\nSkin 0 "${path}"` : `0 1 20 1 ${path}`);
      return { text: lines.join('\n'), what: `a path of ${folders} folders at line ${at}` };
    }
    case 1: {
      const odd = ODD_NUMBERS[pick(ODD_NUMBERS.length)];
      const words = lines[at].split(/(\s+)/);
      const numbers = words.flatMap((w, i) => (/^-?[\d.]+$/.test(w) ? [i] : []));
      if (numbers.length === 0) lines.splice(at, 0, kind === 'animcfg' ? `0 1 0 ${odd}` : `0 1 ${odd} 1`);
      else words[numbers[pick(numbers.length)]] = odd;
      if (numbers.length > 0) lines[at] = words.join('');
      return { text: lines.join('\n'), what: `${odd} put in line ${at}` };
    }
    default: {
      const c = CONTROLS[pick(CONTROLS.length)];
      const line = lines[at];
      const p = pick(line.length + 1);
      lines[at] = line.slice(0, p) + c + line.slice(p);
      return { text: lines.join('\n'), what: `${JSON.stringify(c)} put at character ${p} of line ${at}` };
    }
  }
}

/** A mutated copy of the sidecar text `text` of file `name`, and what was done. */
export function mutateSidecar(name: string, text: string, random: () => number): { text: string; what: string } {
  const kind = fuzzKind(name) ?? 'skin';
  const pick = (n: number): number => Math.floor(random() * n);
  const longLine = (n: number, pick: (n: number) => number): string => {
    const words = Array.from({ length: n }, () => String(pick(100)));
    return kind === 'skin' ? `body,${words.join('/')}` : kind === 'shader' ? `animMap ${words.join(' ')}` : words.join(' ');
  };
  const lines = mutateLines(text, random, VOCABULARY[kind], longLine, true);
  if (pick(3) !== 0) return lines;
  const words = mutateSidecarWords(kind, lines.text, pick);
  return { text: words.text, what: `${lines.what}; ${words.what}` };
}

/** C0 and C1 controls, DEL and the line separators: a message holding one raw prints broken. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** The longest message (a name in it is cut to MAX_SHOWN_NAME). */
const MAX_MESSAGE = 2000;

/** A frame rate a clip can be played at, and written as: finite, above 0, at most MAX_SIDECAR_FPS. */
const playable = (fps: number): boolean => Number.isFinite(fps) && fps > 0 && fps <= MAX_SIDECAR_FPS;

let models: { summary: Map<string, ModelSummary>; model: Model } | undefined;

/** The models beside the fuzzed file (generated once): m.iqm, the player's parts. */
function companions(): { summary: Map<string, ModelSummary>; model: Model } {
  if (models) return models;
  const model = readModel(md3({ frames: FRAMES, surfaceName: 'body', tagNames: ['tag_head', 'tag_weapon'] }));
  const summary = (file: string, surfaces: string[]): ModelSummary => ({ file, frameCount: FRAMES, surfaces, materials: surfaces.map(() => ''), tags: ['tag_head', 'tag_weapon', 'tag_torso'] });
  const clips = [
    { name: 'idle', firstFrame: 0, frameCount: 20, fps: 10, loop: true },
    { name: 'run', firstFrame: 20, frameCount: 40, fps: 10, loop: true },
  ];
  const summaries = new Map<string, ModelSummary>([
    [`${FOLDER}/m.iqm`, { ...summary('m.iqm', ['body', 'head']), format: 'iqm', version: 2, clips }],
    [`${FOLDER}/lower.md3`, summary('lower.md3', ['l_legs'])],
    [`${FOLDER}/upper.md3`, summary('upper.md3', ['u_torso'])],
    [`${FOLDER}/head.md3`, summary('head.md3', ['h_head'])],
  ]);
  for (const path of summaries.keys()) FILES.add(path);
  return (models = { summary: summaries, model });
}

/** The kind of a fuzzed file by its name: a sidecar's, or a MODELDEF. */
export function fuzzKind(name: string): SidecarKind | 'modeldef' | undefined {
  return isModeldefName(name) ? 'modeldef' : sidecarKind(name);
}

/** The in-memory files of the fuzz: FILES, the models' summaries, the shader script. */
function fuzzIo(kind: SidecarKind | 'modeldef', text: string, summary: Map<string, ModelSummary>): SidecarIo {
  return {
    isFile: async (path) => FILES.has(path),
    // A folder is one when some file lies under it; it lists its files and folders.
    listFolder: async (path) => {
      const under = [...FILES].filter((f) => f.startsWith(path === '/' ? '/' : `${path}/`));
      return under.length > 0 ? [...new Set(under.map((f) => f.slice(path === '/' ? 1 : path.length + 1).split('/')[0]))] : null;
    },
    model: async (path) => {
      const found = summary.get(path);
      return found ? { summary: found } : null;
    },
    // The one shader script the engine lookup finds (under /game/scripts): the fuzzed one, or SCRIPT.
    readBytes: async (path) => (path === '/game/scripts/fuzz.shader' ? Buffer.from(kind === 'shader' ? text : SCRIPT, 'latin1') : FILES.has(path) ? new Uint8Array(0) : null),
  };
}

/** The oracle on every message: printable, one line, not too long. */
function checkMessages(diagnostics: readonly { code: string; message: string }[]): void {
  for (const d of diagnostics) {
    if (RAW_CONTROL.test(d.message) || d.message.length > MAX_MESSAGE) throw new Error(`a ${d.code} message of ${d.message.length} characters, or with a raw control character: ${JSON.stringify(d.message.slice(0, 300))}`);
  }
}

/**
 * A MODELDEF: the check against the fuzz folder as its mod root, then the language server's hover
 * on every link, its lenses, and completion at the start and end of every 50th line.
 */
async function exerciseModeldef(text: string, io: SidecarIo, lineCount: number, result: IqeExercise, record: (path: string, ms: number) => void): Promise<IqeExercise> {
  let start = cpuMs();
  const check = await checkModeldef(`${FOLDER}/modeldef.txt`, text, io);
  record('check', cpuMs() - start);
  checkWithinLines(check.diagnostics, lineCount);
  checkMessages(check.diagnostics);
  start = cpuMs();
  for (const link of check.links) {
    const r = link.kind === 'frame' ? link.frameRange : link.range;
    if (r.line < 0 || r.endLine >= lineCount || r.endLine < r.line) throw new Error(`a ${link.kind} link at lines ${r.line}–${r.endLine} of ${lineCount}`);
    if (!modeldefHover(check, { line: r.line, character: r.column })) throw new Error(`no hover on the ${link.kind} link at line ${r.line + 1}`);
    if (link.kind === 'frame' && !(link.frame >= 0 && link.frame < (link.model.summary?.frameCount ?? Infinity))) throw new Error(`a ▶ lens on frame ${link.frame} (line ${r.line + 1})`);
  }
  modeldefCodeLenses(check, 'file:///fuzz/modeldef.txt', (p) => `file://${p}`);
  const lines = text.split(/\r\n|\r|\n/);
  for (let line = 0; line < lines.length; line += 50) {
    for (const character of [0, lines[line].length]) await modeldefCompletions(check, text, { line, character }, io.listFolder);
  }
  record('server features', cpuMs() - start);
  return result;
}

/** The sidecar paths on one text, timed (CPU time); throws on a failure. */
export async function exerciseSidecar(bytes: Uint8Array, name: string): Promise<IqeExercise> {
  const result: IqeExercise = { owned: 0, slowestPath: '', slowestMs: 0 };
  const kind = fuzzKind(name);
  if (!kind) throw new Error(`${name} is not a sidecar file name`);
  // Latin-1, as `check` reads them: a stray byte must not shift the columns.
  const text = Buffer.from(bytes).toString('latin1');
  const lineCount = text.split(/\r\n|\r|\n/).length;
  const { summary, model } = companions();
  const io = fuzzIo(kind, text, summary);
  const record = (path: string, ms: number): void => {
    if (ms > result.slowestMs) {
      result.slowestMs = ms;
      result.slowestPath = path;
    }
  };
  if (kind === 'modeldef') return exerciseModeldef(text, io, lineCount, result, record);
  let start = cpuMs();
  const check = await checkSidecar(kind, `${FOLDER}/${name}`, text, io, EXTENSIONS);
  record('check', cpuMs() - start);
  checkWithinLines(check.diagnostics, lineCount);
  checkMessages(check.diagnostics);
  for (const t of check.doc.textures) if (t.path.length > MAX_TEXTURE_PATH) throw new Error(`a texture path of ${t.path.length} characters was looked up (line ${t.range.line + 1})`);
  for (const c of check.doc.clips) if (!playable(c.fps)) throw new Error(`clip ${c.index} (line ${c.range.line + 1}) plays at ${c.fps} fps`);
  // The language server's hover on every clip line and its code lenses' data.
  start = cpuMs();
  for (const clip of check.doc.clips) {
    if (clipAtLine(check.doc, clip.range.line) === undefined) throw new Error(`no clip found at line ${clip.range.line}, where clip ${clip.index} is`);
    if (!clipHover(check.doc, clip)) throw new Error(`clip ${clip.index} has no hover text`);
  }
  record('server hover', cpuMs() - start);
  // The preview: the clips it plays over a model, the skin it draws with, each mesh's texture names.
  start = cpuMs();
  const named = { name, text };
  const fileName = kind === 'animcfg' ? 'upper.md3' : 'm.md3';
  const clips = modelClips(model, fileName, { framegroups: kind === 'framegroups' ? named : null, animationCfg: kind === 'animcfg' ? named : null });
  for (const clip of clips.clips) {
    if (!playable(clip.fps)) throw new Error(`the preview's clip ${JSON.stringify(clip.name)} (${clips.from}) plays at ${clip.fps} fps`);
    if (!(clip.firstFrame >= 0 && clip.frameCount >= 0 && clip.firstFrame + clip.frameCount <= model.frameCount)) throw new Error(`the preview's clip "${clip.name}" (${clips.from}) plays frames ${clip.firstFrame}..${clip.firstFrame + clip.frameCount - 1} of a model of ${model.frameCount}`);
  }
  if (kind === 'skin') {
    const skin = chooseSkin(model, [named]);
    for (let m = 0; m < model.meshes.length; m++) textureNames(model, m, skin?.skin ?? null);
  }
  record('preview', cpuMs() - start);
  return result;
}

/** Small seeds of each image kind, generated here (the real textures are added by the caller). */
export function generatedImageSeeds(): { name: string; bytes: Uint8Array }[] {
  const header = (type: number, w: number, h: number, bits: number, descriptor: number, map = 0): number[] => [0, map ? 1 : 0, type, 0, 0, map & 255, map >> 8, map ? 24 : 0, 0, 0, 0, 0, w & 255, w >> 8, h & 255, h >> 8, bits, descriptor];
  const pixels = (n: number, bytesPerPixel: number): number[] => Array.from({ length: n * bytesPerPixel }, (_, i) => (i * 37) & 255);
  // RLE: runs of 3 and raw packets of 2, alternating, for 16 pixels of `bytesPerPixel`.
  const rle = (bytesPerPixel: number): number[] => {
    const out: number[] = [];
    for (let i = 0; i < 16; i += 5) out.push(0x82, ...pixels(1, bytesPerPixel), 0x01, ...pixels(2, bytesPerPixel));
    return out.concat(0x00, ...pixels(1, bytesPerPixel));
  };
  const tga = (name: string, bytes: number[]) => ({ name, bytes: new Uint8Array(bytes) });
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 0, 64, 8, 6, 0, 0, 0, 0, 0, 0, 0];
  const jpeg = [0xff, 0xd8, 0xff, 0xe0, 0, 16, ...Array.from({ length: 14 }, () => 0), 0xff, 0xdb, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 48, 0, 96, 1, 1, 0x11, 0, 0xff, 0xd9];
  return [
    tga('rgba32.tga', [...header(2, 4, 4, 32, 8), ...pixels(16, 4)]),
    tga('rgb24-top.tga', [...header(2, 4, 4, 24, 0x20), ...pixels(16, 3)]),
    tga('rgb16-rtl.tga', [...header(2, 4, 4, 16, 0x10 | 1), ...pixels(16, 2)]),
    tga('grey8.tga', [...header(3, 4, 4, 8, 0), ...pixels(16, 1)]),
    tga('mapped8.tga', [...header(1, 4, 4, 8, 0, 4), ...pixels(4, 3), ...pixels(16, 1).map((v) => v & 3)]),
    tga('rle24.tga', [...header(10, 4, 4, 24, 0), ...rle(3)]),
    tga('rle32-top.tga', [...header(10, 4, 4, 32, 0x28), ...rle(4)]),
    tga('rle-grey.tga', [...header(11, 4, 4, 8, 0), ...rle(1)]),
    tga('rle-mapped.tga', [...header(9, 4, 4, 8, 0, 4), ...pixels(4, 3), ...rle(1).map((v, i) => (i % 2 ? v & 3 : v))]),
    { name: 'head.png', bytes: new Uint8Array(png) },
    { name: 'head.jpg', bytes: new Uint8Array(jpeg) },
  ];
}

/** Sizes and decodes one image, timed; `owned`: what the decoded image holds beyond width x height RGBA. Throws on a failure. */
export function exerciseImage(bytes: Uint8Array): IqeExercise {
  const result: IqeExercise = { owned: 0, slowestPath: 'size', slowestMs: 0 };
  let start = cpuMs();
  const size = imageSize(bytes);
  result.slowestMs = cpuMs() - start;
  if (size && !(Number.isInteger(size.width) && Number.isInteger(size.height) && size.width >= 0 && size.height >= 0)) throw new Error(`imageSize gave ${JSON.stringify(size)}`);
  start = cpuMs();
  try {
    const image = decodeTga(bytes);
    if (image.pixels.length !== image.width * image.height * 4) throw new Error(`a ${image.width}x${image.height} TGA decoded to ${image.pixels.length} bytes`);
    if (size?.format === 'tga' && (size.width !== image.width || size.height !== image.height)) throw new Error(`imageSize says ${size.width}x${size.height}, the decoder ${image.width}x${image.height}`);
    result.owned = image.pixels.buffer.byteLength - image.pixels.length;
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    if (!e.message || !Number.isInteger(e.offset) || e.offset < 0) throw new Error(`malformed FormatError: ${e.message} @ ${e.offset}`);
  }
  const ms = cpuMs() - start;
  if (ms > result.slowestMs) {
    result.slowestMs = ms;
    result.slowestPath = 'decode';
  }
  return result;
}
