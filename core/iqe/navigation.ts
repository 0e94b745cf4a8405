// Queries behind the editor features (outline, hover, go to definition, references, folding):
// what is at a position, which line defines vertex N or joint J, what a face index resolves to.
// They read the parsed chunks and their summaries, so each costs one pass over chunk summaries
// plus a scan of one or two chunks, not a walk over the whole document.
import type { Chunk } from './chunk';
import { attributeSlot, Cmd } from './commands';
import { line as parsed, parseLine } from './line';
import { chunkIndexOfLine, lineContentEnd, lineStartOf } from './chunk';

/**
 * What the queries read: the parsed chunks in order and the lines they hold. An IqeDocument is one
 * (it parses whatever is left when its chunks are asked for); `partialView` is a document's parsed
 * part only, for answers that must not wait for a whole parse.
 */
export interface ParsedLines {
  readonly parsedChunks: readonly Chunk[];
  readonly lineCount: number;
  /** False while lines at the end are not parsed yet: a count or a lookup may then fall short. */
  readonly fullyParsed: boolean;
}

/** The parsed part of `doc`, without parsing more. */
export function partialView(doc: { readonly chunksSoFar: readonly Chunk[]; readonly lineCount: number; readonly fullyParsed: boolean }): ParsedLines {
  return { parsedChunks: doc.chunksSoFar, lineCount: doc.lineCount, fullyParsed: doc.fullyParsed };
}

/** A line's place: its chunk and its index in the chunk. */
interface LineRef {
  chunk: Chunk;
  index: number;
}

function findLine(chunks: readonly Chunk[], lineNumber: number): LineRef | undefined {
  const c = chunkIndexOfLine(chunks, lineNumber);
  return c < 0 ? undefined : { chunk: chunks[c], index: lineNumber - chunks[c].firstLine };
}

/** Line of the first `comment` command (-1: none); later lines are comment text. */
export function commentLine(doc: ParsedLines): number {
  // From the chunks' summaries: a request after an edit need not wait for the whole analysis.
  for (const chunk of doc.parsedChunks) if (chunk.summary.commentLine >= 0) return chunk.firstLine + chunk.summary.commentLine;
  return -1;
}

function isCommandLine(doc: ParsedLines, lineNumber: number): boolean {
  const comment = commentLine(doc);
  return comment < 0 || lineNumber <= comment;
}

/** The text of a line without its terminator ('' past the end). */
export function lineText(doc: ParsedLines, lineNumber: number): string {
  const at = findLine(doc.parsedChunks, lineNumber);
  if (!at) return '';
  const { chunk, index } = at;
  const start = lineStartOf(chunk, index);
  const end = lineContentEnd(chunk.text, start, lineStartOf(chunk, index + 1));
  return chunk.text.slice(start, end);
}

export type TokenRole = 'command' | 'name' | 'value' | 'type' | 'format' | 'other';

export interface TokenAt {
  line: number;
  kind: Cmd;
  role: TokenRole;
  /** For role 'value': which number of the line (0-based). */
  valueIndex: number;
  /** The token's columns (end exclusive). */
  start: number;
  end: number;
  /** The parsed numbers of the line. */
  values: number[];
  name: string | undefined;
}

/** What is at (line, character): the command word, a name, the k-th number, a vertexarray word. */
export function tokenAt(doc: ParsedLines, lineNumber: number, character: number): TokenAt | undefined {
  if (!isCommandLine(doc, lineNumber)) return undefined;
  const text = lineText(doc, lineNumber);
  const kind = parseLine(text, 0, text.length, lineNumber === 0);
  const values = Array.from(parsed.values.subarray(0, parsed.count));
  const name = parsed.nameStart >= 0 ? text.slice(parsed.nameStart, parsed.nameEnd) : undefined;
  const base = { line: lineNumber, kind, values, name, valueIndex: -1 };
  const within = (start: number, end: number): boolean => character >= start && character <= end && end > start;
  if (within(parsed.commandStart, parsed.commandEnd)) return { ...base, role: 'command', start: parsed.commandStart, end: parsed.commandEnd };
  if (kind === Cmd.Vertexarray) {
    if (within(parsed.typeStart, parsed.typeEnd)) return { ...base, role: 'type', start: parsed.typeStart, end: parsed.typeEnd };
    if (within(parsed.formatStart, parsed.formatEnd)) return { ...base, role: 'format', start: parsed.formatStart, end: parsed.formatEnd };
  }
  if (parsed.nameStart >= 0 && within(parsed.nameStart, parsed.nameEnd)) return { ...base, role: 'name', start: parsed.nameStart, end: parsed.nameEnd };
  for (let k = 0; k < parsed.count; k++) {
    const start = parsed.spans[2 * k];
    const end = parsed.spans[2 * k + 1];
    if (within(start, end)) return { ...base, role: 'value', valueIndex: k, start, end };
  }
  return { ...base, role: 'other', start: character, end: character };
}

/** Number of `vp` lines before `lineNumber` (the vertex index of a `vp` on that line). */
export function verticesBefore(doc: ParsedLines, lineNumber: number): number {
  let count = 0;
  for (const chunk of doc.parsedChunks) {
    if (chunk.firstLine + chunk.lineCount <= lineNumber) {
      count += chunk.summary.vpCount;
      continue;
    }
    for (let i = 0; i < lineNumber - chunk.firstLine; i++) if (chunk.kind[i] === Cmd.Vp) count++;
    break;
  }
  return count;
}

/** The line of vertex `index` (its `vp`), or -1. */
export function vertexLine(doc: ParsedLines, index: number): number {
  if (index < 0) return -1;
  const comment = commentLine(doc);
  let seen = 0;
  for (const chunk of doc.parsedChunks) {
    if (seen + chunk.summary.vpCount <= index) {
      seen += chunk.summary.vpCount;
      continue;
    }
    for (let i = 0; i < chunk.lineCount; i++) {
      if (chunk.kind[i] === Cmd.Vp && seen++ === index) {
        const lineNumber = chunk.firstLine + i;
        return comment >= 0 && lineNumber > comment ? -1 : lineNumber;
      }
    }
  }
  return -1;
}

/** The `vp` count at the last `mesh` command before `lineNumber` (the base of `fm` indices there). */
function meshVertexBase(doc: ParsedLines, lineNumber: number): number {
  let vertices = 0;
  let base = 0;
  for (const chunk of doc.parsedChunks) {
    const s = chunk.summary;
    if (chunk.firstLine + chunk.lineCount <= lineNumber) {
      if (s.meshVertexOffsets.length > 0) base = vertices + s.meshVertexOffsets[s.meshVertexOffsets.length - 1];
      vertices += s.vpCount;
      continue;
    }
    for (let i = 0; i < lineNumber - chunk.firstLine; i++) {
      if (chunk.kind[i] === Cmd.Vp) vertices++;
      else if (chunk.kind[i] === Cmd.Mesh) base = vertices;
    }
    break;
  }
  return base;
}

/** The vertex a face line's k-th index resolves to (§3.2), or -1 when it is out of range. */
export function faceVertex(doc: ParsedLines, lineNumber: number, valueIndex: number): number {
  const token = tokenAt(doc, lineNumber, 0);
  if (!token || (token.kind !== Cmd.Fa && token.kind !== Cmd.Fm) || valueIndex >= token.values.length) return -1;
  const raw = token.values[valueIndex];
  // Every vp before the comment, from the chunks' counts (no whole analysis per request after an edit).
  const comment = commentLine(doc);
  const total = comment >= 0 ? verticesBefore(doc, comment) : doc.parsedChunks.reduce((n, c) => n + c.summary.vpCount, 0);
  let index: number;
  if (raw < 0) index = Math.max(verticesBefore(doc, lineNumber) + raw, 0);
  else index = token.kind === Cmd.Fm ? meshVertexBase(doc, lineNumber) + raw : raw;
  return index < total ? index : -1;
}

export interface JointInfo {
  index: number;
  name: string;
  parent: number;
  line: number;
}

/** The joints in file order. */
export function joints(doc: ParsedLines): JointInfo[] {
  const out: JointInfo[] = [];
  const comment = commentLine(doc);
  for (const chunk of doc.parsedChunks) {
    const s = chunk.summary;
    for (let j = 0; j < s.jointLines.length; j++) {
      const lineNumber = chunk.firstLine + s.jointLines[j];
      if (comment >= 0 && lineNumber > comment) return out;
      out.push({ index: out.length, name: chunk.names.get(s.jointLines[j]) ?? '', parent: s.jointParents[j], line: lineNumber });
    }
  }
  return out;
}

export interface OutlineSection {
  kind: 'mesh' | 'animation' | 'comment';
  name: string;
  /** mesh: the last material named in the section. */
  material?: string;
  line: number;
  /** Last line of the section (before the next section or the end). */
  endLine: number;
  /** mesh: vertices and face lines in the section; animation: frames and fps. */
  vertices?: number;
  faces?: number;
  frames?: number;
  framerate?: number;
  loop?: boolean;
  /** animation: the line of each frame's first pose, and that line's length in characters. */
  frameLines?: number[];
  frameLineLengths?: number[];
}

/**
 * A chunk's part of the outline: its section commands in order, each with the `vp` and face lines
 * between the one before (or the chunk's start) and it, so that sections() reads a few entries per
 * chunk instead of every line (issue 35: the outline of a 95 MB document walked 2.5 million lines
 * per request, and VS Code asks for it and for the folding after every keystroke). Kept per chunk:
 * an edit replaces the chunks it touches. Lines are the chunk's own.
 */
interface OutlineEvent {
  /** Mesh, Material, Animation, Frame, Framerate, Loop, Comment; Pq stands for the first pose after the chunk's start or after a frame or animation command. */
  kind: Cmd;
  line: number;
  /** `vp` and face lines since the event before (or the chunk's start). */
  vertices: number;
  faces: number;
  /** Mesh, Material, Animation: the name. */
  name: string;
  /** Framerate: its value; Pq: the length of the pose line (its outline range ends there). */
  value: number;
}

interface ChunkOutline {
  events: OutlineEvent[];
  /** `vp` and face lines after the last event. */
  tailVertices: number;
  tailFaces: number;
}

const chunkOutlines = new WeakMap<Chunk, ChunkOutline>();

function chunkOutline(chunk: Chunk): ChunkOutline {
  let outline = chunkOutlines.get(chunk);
  if (outline) return outline;
  const events: OutlineEvent[] = [];
  let vertices = 0;
  let faces = 0;
  if (chunk.summary.structuralLines === 0 && chunk.summary.commentLine < 0) {
    vertices = chunk.summary.vpCount;
  } else {
    const push = (kind: Cmd, line: number, name = '', value = 0): void => {
      events.push({ kind, line, vertices, faces, name, value });
      vertices = 0;
      faces = 0;
    };
    // A pose event already stands for the poses since the chunk's start or the last frame or animation.
    let poseMarked = false;
    lines: for (let i = 0; i < chunk.lineCount; i++) {
      const k = chunk.kind[i] as Cmd;
      switch (k) {
        case Cmd.Vp:
          vertices++;
          break;
        case Cmd.Fa:
        case Cmd.Fm:
          faces++;
          break;
        case Cmd.Mesh:
        case Cmd.Material:
          push(k, i, chunk.names.get(i) ?? '');
          break;
        case Cmd.Animation:
          push(k, i, chunk.names.get(i) ?? '');
          poseMarked = false;
          break;
        case Cmd.Frame:
          push(k, i);
          poseMarked = false;
          break;
        case Cmd.Pq:
        case Cmd.Pm:
        case Cmd.Pa:
          if (!poseMarked) {
            const start = lineStartOf(chunk, i);
            push(Cmd.Pq, i, '', lineContentEnd(chunk.text, start, lineStartOf(chunk, i + 1)) - start);
            poseMarked = true;
          }
          break;
        case Cmd.Framerate: {
          const at = chunk.valueStart[i];
          push(k, i, '', at < chunk.valueStart[i + 1] ? chunk.values[at] : 0);
          break;
        }
        case Cmd.Loop:
          push(k, i);
          break;
        case Cmd.Comment:
          push(k, i);
          break lines;
      }
    }
  }
  outline = { events, tailVertices: vertices, tailFaces: faces };
  chunkOutlines.set(chunk, outline);
  return outline;
}

/** Meshes, animations and the comment section, in file order, each with its line range. */
export function sections(doc: ParsedLines): OutlineSection[] {
  const out: OutlineSection[] = [];
  let current: OutlineSection | undefined;
  let lastLine = 0;
  let framePoses = false;
  const close = (endLine: number): void => {
    if (current) current.endLine = Math.max(current.line, endLine);
    current = undefined;
  };
  const count = (vertices: number, faces: number): void => {
    if (current?.kind !== 'mesh') return;
    current.vertices! += vertices;
    current.faces! += faces;
  };
  for (const chunk of doc.parsedChunks) {
    lastLine = chunk.firstLine + chunk.lineCount - 1;
    const { events, tailVertices, tailFaces } = chunkOutline(chunk);
    for (const event of events) {
      count(event.vertices, event.faces);
      const lineNumber = chunk.firstLine + event.line;
      switch (event.kind) {
        case Cmd.Mesh:
          close(lineNumber - 1);
          current = { kind: 'mesh', name: event.name, line: lineNumber, endLine: lineNumber, vertices: 0, faces: 0 };
          out.push(current);
          break;
        case Cmd.Material:
          if (current?.kind === 'mesh') current.material = event.name;
          break;
        case Cmd.Animation:
          close(lineNumber - 1);
          current = { kind: 'animation', name: event.name, line: lineNumber, endLine: lineNumber, frames: 0, framerate: 0, loop: false, frameLines: [], frameLineLengths: [] };
          framePoses = false;
          out.push(current);
          break;
        case Cmd.Frame:
          framePoses = false;
          break;
        case Cmd.Pq:
          if (current?.kind === 'animation' && !framePoses) {
            current.frames!++;
            current.frameLines!.push(lineNumber);
            current.frameLineLengths!.push(event.value);
          }
          framePoses = true;
          break;
        case Cmd.Framerate:
          if (current?.kind === 'animation') current.framerate = Math.max(0, event.value);
          break;
        case Cmd.Loop:
          if (current?.kind === 'animation') current.loop = true;
          break;
        case Cmd.Comment:
          close(lineNumber - 1);
          out.push({ kind: 'comment', name: 'comment', line: lineNumber, endLine: doc.lineCount - 1 });
          return out;
      }
    }
    count(tailVertices, tailFaces);
  }
  close(lastLine);
  return out;
}

/**
 * The face values of a chunk, in short: the smallest and largest non-negative value of its `fa`
 * and of its `fm` lines (Infinity, -Infinity when none), and whether any is negative. Kept per chunk
 * (an edit replaces the chunks it touches), so references of a vertex read again only those
 * (issue 35: every face line of a 95 MB document was read for each references request).
 */
interface FaceRange {
  faMin: number;
  faMax: number;
  fmMin: number;
  fmMax: number;
  negative: boolean;
}
const faceRanges = new WeakMap<Chunk, FaceRange>();

function faceRange(chunk: Chunk): FaceRange {
  let range = faceRanges.get(chunk);
  if (range) return range;
  range = { faMin: Infinity, faMax: -Infinity, fmMin: Infinity, fmMax: -Infinity, negative: false };
  for (let i = 0; i < chunk.lineCount; i++) {
    const k = chunk.kind[i];
    if (k !== Cmd.Fa && k !== Cmd.Fm) continue;
    for (let v = chunk.valueStart[i]; v < chunk.valueStart[i + 1]; v++) {
      const raw = chunk.values[v];
      if (raw < 0) range.negative = true;
      else if (k === Cmd.Fa) {
        if (raw < range.faMin) range.faMin = raw;
        if (raw > range.faMax) range.faMax = raw;
      } else {
        if (raw < range.fmMin) range.fmMin = raw;
        if (raw > range.fmMax) range.fmMax = raw;
      }
    }
  }
  faceRanges.set(chunk, range);
  return range;
}

/**
 * Builds the tables kept per chunk that the outline, the folding and references read, one chunk a
 * step: the language server runs it in slices after a document's first diagnostics, so that the
 * first outline and references requests do not build them for every chunk at once (issue 35: on a
 * 95 MB document those first requests took 25-55 ms each, the later ones under 3).
 */
export function* prepareNavigation(chunks: readonly Chunk[]): Generator<void, void, undefined> {
  for (const chunk of chunks) {
    chunkOutline(chunk);
    if (chunk.summary.faceLines > 0) faceRange(chunk);
    yield;
  }
}

/** Whether a face of `chunk` (which has no `mesh` line) can resolve to vertex `index`, its fm values counting from `meshBase`. */
function mayUseVertex(chunk: Chunk, index: number, meshBase: number): boolean {
  const r = faceRange(chunk);
  // A negative value counts back from the vertices before its line: not bounded here.
  return r.negative || (index >= r.faMin && index <= r.faMax) || (index - meshBase >= r.fmMin && index - meshBase <= r.fmMax);
}

/** Lines that use vertex `index` in a face (up to `limit` of them). */
export function facesUsingVertex(doc: ParsedLines, index: number, limit = 1000): number[] {
  const out: number[] = [];
  const comment = commentLine(doc);
  let verticesSoFar = 0;
  let meshBase = 0;
  for (const chunk of doc.parsedChunks) {
    if (chunk.summary.faceLines === 0 && chunk.summary.meshVertexOffsets.length === 0) {
      verticesSoFar += chunk.summary.vpCount;
      continue;
    }
    // (A skipped chunk adds no line, so one past the comment may be skipped too: the first chunk
    // read after the comment returns.)
    if (chunk.summary.meshVertexOffsets.length === 0 && !mayUseVertex(chunk, index, meshBase)) {
      verticesSoFar += chunk.summary.vpCount;
      continue;
    }
    for (let i = 0; i < chunk.lineCount; i++) {
      const lineNumber = chunk.firstLine + i;
      if (comment >= 0 && lineNumber > comment) return out;
      const k = chunk.kind[i];
      if (k === Cmd.Vp) verticesSoFar++;
      else if (k === Cmd.Mesh) meshBase = verticesSoFar;
      else if (k === Cmd.Fa || k === Cmd.Fm) {
        for (let v = chunk.valueStart[i]; v < chunk.valueStart[i + 1]; v++) {
          const raw = chunk.values[v];
          const resolved = raw < 0 ? Math.max(verticesSoFar + raw, 0) : k === Cmd.Fm ? meshBase + raw : raw;
          if (resolved === index) {
            out.push(lineNumber);
            if (out.length >= limit) return out;
            break;
          }
        }
      }
    }
  }
  return out;
}

/** Lines that refer to joint `index`: children's `joint` lines and `vb` lines (up to `limit`). */
export function jointReferences(doc: ParsedLines, index: number, limit = 1000): { line: number; valueIndex: number }[] {
  const out: { line: number; valueIndex: number }[] = [];
  const comment = commentLine(doc);
  for (const chunk of doc.parsedChunks) {
    const s = chunk.summary;
    const hasBlend = s.attributeCount[attributeSlot(Cmd.Vb)] > 0 && s.blendJointMin <= index && s.blendJointMax >= index;
    if (!hasBlend && s.jointLines.length === 0) continue;
    for (let i = 0; i < chunk.lineCount; i++) {
      const lineNumber = chunk.firstLine + i;
      if (comment >= 0 && lineNumber > comment) return out;
      const k = chunk.kind[i];
      const v = chunk.valueStart[i];
      const n = chunk.valueStart[i + 1] - v;
      if (k === Cmd.Joint && n > 0 && chunk.values[v] === index) out.push({ line: lineNumber, valueIndex: 0 });
      else if (k === Cmd.Vb && hasBlend) {
        for (let a = 0; a + 1 < n; a += 2) {
          if (chunk.values[v + a] === index) {
            out.push({ line: lineNumber, valueIndex: a });
            break;
          }
        }
      }
      if (out.length >= limit) return out;
    }
  }
  return out;
}
