// MD5 (Doom 3) source readers: an .md5mesh (joints in model space, meshes whose vertices are
// weighted joint-space offsets) and an .md5anim (a hierarchy with flags that say which of a
// joint's six values each frame animates, a base frame, frames, a frame rate), MD5Version 10,
// into the neutral SourceModel (core/compile/source.ts) as the reference compiler builds them:
// a vertex's position is the sum of its weights' offsets through their joints' model-space
// poses times the bias; its blend is the weights, the largest four kept; texture coordinates as
// written; normals smoothed over the mesh, split where texture coordinates differ; the joints'
// base poses made parent-relative. Diagnostics as data (0-based line and column, a code); a
// malformed file is an error at its token, never a partial model.
import type { IqeDiagnostic } from '../iqe/diagnostic';
import { lineNote } from '../compile/options';
import { ReadError, readFailed } from '../compile/readError';
import { posesFit, posesTooMany } from '../compile/budget';
import { blendCombo } from '../compile/input';
import { emptySourceModel, type InputJoint, type SourceSection, type SourceModel } from '../compile/source';
import type { SourceRead } from '../compile/sources';
import { POSE_STRIDE, poseFromQuaternion } from '../math/pose';
import { Lexer, Tok, type Md5Token } from './tokens';


/**
 * The tokens of a file with a cursor, read in place (Lexer); comments are skipped unless asked
 * for. Numbers and punctuation are taken without an object (number(), skip()); peek() and next()
 * make the token's object for the callers that keep it.
 */
class Cursor {
  /** Whether the lexer's token is the one ahead (found and not taken). */
  private ready = false;
  /** The object of the token ahead, once made. */
  private aheadToken: Md5Token | null = null;
  /** The place of the token taken last (for errors about a value once it has been read). */
  takenLine = 0;
  takenColumn = 0;
  takenEnd = 0;
  constructor(
    private readonly lexer: Lexer,
    /** The file's length in characters. */
    readonly textLength: number,
  ) {}

  /** The kind of the token ahead, a comment or not (an unterminated string is the error). */
  private look(): Tok {
    if (!this.ready) {
      this.aheadToken = null;
      if (this.lexer.scan() === Tok.Error) throw unterminated(this.lexer.token());
      this.ready = true;
    }
    return this.lexer.kind;
  }

  private take(): void {
    const lexer = this.lexer;
    this.ready = false;
    this.takenLine = lexer.line;
    this.takenColumn = lexer.column;
    this.takenEnd = lexer.endColumn;
  }

  /** The kind of the next token that is not a comment (without taking it): Tok.End at the end. */
  peekKind(): Tok {
    let kind = this.look();
    while (kind === Tok.Comment) {
      this.ready = false;
      kind = this.look();
    }
    return kind;
  }

  /** The next token that is not a comment (without taking it), or null at the end. */
  peek(): Md5Token | null {
    if (this.peekKind() === Tok.End) return null;
    return (this.aheadToken ??= this.lexer.token());
  }

  /** The next comment before the next other token, taken, or null. */
  comment(): Md5Token | null {
    if (this.look() !== Tok.Comment) return null;
    const t = this.lexer.token();
    this.take();
    return t;
  }

  next(what: string): Md5Token {
    const t = this.peek();
    if (!t) throw this.ended(what);
    this.take();
    return t;
  }

  private ended(what: string): ReadError {
    return new ReadError('md5-syntax', `the file ends where ${what} was expected`, this.lexer.lastLine, 0, 0);
  }

  /** A number (an integer when `integer`). */
  number(what: string, integer = false): number {
    const kind = this.peekKind();
    if (kind === Tok.End) throw this.ended(what);
    const value = this.lexer.value;
    if (kind !== Tok.Number || (integer && !Number.isInteger(value))) {
      const t = this.next(what);
      throw errorAt(t, 'md5-syntax', `expected ${what} (${integer ? 'an integer' : 'a number'}), found '${t.text}'`);
    }
    this.take();
    return value;
  }

  /** Takes the next token when it is `word` (a word, or a string of it, as the keyword switches take it); whether it did. */
  takeWord(word: string): boolean {
    const kind = this.peekKind();
    if ((kind !== Tok.Word && kind !== Tok.String) || !this.lexer.is(word)) return false;
    this.take();
    return true;
  }

  /** Takes the next token, which must be of `kind` (written `text`). */
  skip(kind: Tok, text: string, what: string): void {
    const ahead = this.peekKind();
    if (ahead === kind) this.take();
    else this.expect(kind, text, what);
  }

  expect(kind: Tok, text: string, what: string): Md5Token {
    const t = this.next(`'${text}'`);
    if (t.kind !== kind) throw errorAt(t, 'md5-syntax', `expected '${text}' ${what}, found '${t.text}'`);
    return t;
  }

  /** `( a b c )` or `( a b )`: `count` numbers in parentheses, into out[at ..]. */
  tuple(count: number, what: string, out: Float64Array, at: number): void {
    this.skip(Tok.ParenOpen, '(', `before ${what}`);
    for (let k = 0; k < count; k++) out[at + k] = this.number(what);
    this.skip(Tok.ParenClose, ')', `after the ${count} values of ${what}`);
  }

  /** An error at the token taken last. */
  errorAtTaken(code: string, message: string): ReadError {
    return new ReadError(code, message, this.takenLine, this.takenColumn, this.takenEnd);
  }
}

function errorAt(t: Md5Token, code: string, message: string): ReadError {
  return new ReadError(code, message, t.line, t.column, t.end);
}

function unterminated(t: Md5Token): ReadError {
  return new ReadError('unterminated-quote', t.text, t.line, t.column, t.end);
}

/** The tokens of a file, and its MD5Version checked (10). */
function open(text: string): Cursor {
  const cursor = new Cursor(new Lexer(text), text.length);
  const first = cursor.peek();
  if (!first || first.text !== 'MD5Version') throw new ReadError('md5-version', 'an MD5 file starts with MD5Version 10', first?.line ?? 0, first?.column ?? 0, first?.end ?? 0);
  cursor.next('MD5Version');
  const version = cursor.peek();
  const v = cursor.number('the MD5 version', true);
  if (v !== 10) {
    throw errorAt(version!, 'md5-version', `MD5Version ${v} is not read: only version 10 (Doom 3, Quake 4, Unvanquished and the Blender/Maya exporters) is; the reference compiler also refuses it`);
  }
  return cursor;
}

/**
 * A read's failure: an unterminated string anywhere in the text is the error, before any other
 * (the reader meets it only when it reads that far: a file read to its end had none).
 */
function failed(text: string, error: unknown): SourceRead {
  const first = error instanceof ReadError && error.code !== 'unterminated-quote' ? Lexer.firstError(text) : null;
  return readFailed(first ? unterminated(first) : error);
}

/** The block after a keyword: its `{`, then `body` until its `}` (an error at the `{` when there is none). */
function block(cursor: Cursor, keyword: Md5Token, body: () => void): void {
  const open = cursor.expect(Tok.Open, '{', `after ${keyword.text}`);
  for (;;) {
    const kind = cursor.peekKind();
    if (kind === Tok.End) throw errorAt(open, 'unterminated-block', `unterminated block: '${keyword.text} {' has no closing '}'`);
    if (kind === Tok.Close) {
      cursor.next('}');
      return;
    }
    body();
  }
}

/** Skips a block's contents (bounds, unknown blocks). */
function skipBlock(cursor: Cursor, keyword: Md5Token): void {
  block(cursor, keyword, () => {
    const t = cursor.next('}');
    if (t.kind === Tok.Open) throw errorAt(t, 'md5-syntax', `a block inside '${keyword.text}'`);
  });
}

/** A count line (`numJoints 3`): a non-negative integer. */
function count(cursor: Cursor, keyword: Md5Token): number {
  const n = cursor.number(`the count after ${keyword.text}`, true);
  if (n < 0) throw cursor.errorAtTaken('md5-syntax', `${keyword.text} ${n}: a count cannot be negative`);
  return n;
}

/**
 * How many `vert`, `tri` or `weight` lines of a count to make room for: the count, but no more than
 * the file could hold (such a line takes at least `shortest` characters). A count beyond that fails
 * later as too few lines; sized by it, a count like 1e12 would fail the allocation (or take the
 * machine's memory) before its error could be reported.
 */
function room(cursor: Cursor, declared: number, shortest: number): number {
  return Math.min(declared, Math.floor(cursor.textLength / shortest));
}

/** An index within [0, limit) of a `kind` line, in order (the file lists them 0, 1, 2, ...). */
function index(cursor: Cursor, kind: string, expected: number, limit: number, countWord: string): number {
  const i = cursor.number(`the ${kind} index`, true);
  if (i < 0 || i >= limit) throw cursor.errorAtTaken(`${kind}-index-range`, `${kind} ${i} is out of range: ${countWord} says ${limit}`);
  if (i !== expected) throw cursor.errorAtTaken(`${kind}-index-order`, `${kind} ${i} where ${kind} ${expected} was expected (they are listed in order)`);
  return i;
}

/** Model-space joints of an md5mesh: name, parent, pose (10 values: translate, rotate, scale 1). */
interface Md5Joint extends InputJoint {
  pose: Float64Array;
  line: number;
}

interface Md5Mesh {
  name: string;
  shader: string;
  line: number;
  /** u, v, first weight, weight count per vertex; the line of each vertex. */
  verts: Float64Array;
  vertLines: Int32Array;
  tris: Int32Array;
  /** joint, bias, x, y, z per weight. */
  weights: Float64Array;
}

/** Reads an .md5mesh. */
export function readMd5Mesh(text: string): SourceRead {
  try {
    return { model: md5Mesh(open(text)), diagnostics: [] };
  } catch (error) {
    return failed(text, error);
  }
}

function md5Mesh(cursor: Cursor): SourceModel {
  const joints: Md5Joint[] = [];
  const meshes: Md5Mesh[] = [];
  let declaredJoints = -1;
  for (let t = cursor.peek(); t; t = cursor.peek()) {
    cursor.next('a keyword');
    if (t.kind !== Tok.Word) throw errorAt(t, 'md5-syntax', `expected a keyword (numJoints, joints, mesh, ...), found '${t.text}'`);
    switch (t.text) {
      case 'commandline':
        cursor.expect(Tok.String, '"', 'around the command line');
        break;
      case 'numJoints':
        declaredJoints = count(cursor, t);
        break;
      case 'numMeshes':
        count(cursor, t);
        break;
      case 'joints':
        block(cursor, t, () => joints.push(joint(cursor, joints.length)));
        if (declaredJoints >= 0 && declaredJoints !== joints.length) throw errorAt(t, 'md5-count', `numJoints says ${declaredJoints}, the joints block has ${joints.length}`);
        break;
      case 'mesh':
        meshes.push(mesh(cursor, t, joints.length));
        break;
      default:
        throw errorAt(t, 'md5-syntax', `'${t.text}' is not an md5mesh keyword (MD5Version, commandline, numJoints, numMeshes, joints, mesh)`);
    }
  }
  return meshModel(joints, meshes);
}

function joint(cursor: Cursor, i: number): Md5Joint {
  const name = cursor.expect(Tok.String, '"', 'around a joint name');
  const parent = cursor.number('the parent joint', true);
  if (parent < -1 || parent >= i) throw cursor.errorAtTaken('joint-parent', `joint ${i} ('${name.text}'): parent ${parent} is not an earlier joint (-1 for a root)`);
  const values = new Float64Array(6);
  cursor.tuple(3, 'the joint position', values, 0);
  cursor.tuple(3, 'the joint orientation (x y z of a unit quaternion)', values, 3);
  const pose = new Float64Array(POSE_STRIDE);
  // x y z and w = -sqrt(1 - x² - y² - z²), as a `pq` with six values.
  poseFromQuaternion(pose, values, 0, 6);
  return { name: name.text, parent, pose, line: name.line };
}

/**
 * How many weights a mesh's verts may take in all: this many times the mesh's weights (an exporter
 * writes each vert a run of its own, so the sum is the number of weights), or the floor.
 */
const MAX_WEIGHT_REFERENCES = 16;
const MAX_WEIGHT_REFERENCES_FLOOR = 1_000_000;

/** A mesh block's counts: as declared (-1 before their keyword) and as read so far. */
interface MeshCounts {
  numVerts: number;
  numTris: number;
  numWeights: number;
  verts: number;
  tris: number;
  weights: number;
}

function mesh(cursor: Cursor, keyword: Md5Token, jointCount: number): Md5Mesh {
  const m: Md5Mesh = { name: '', shader: '', line: keyword.line, verts: new Float64Array(0), vertLines: new Int32Array(0), tris: new Int32Array(0), weights: new Float64Array(0) };
  const c: MeshCounts = { numVerts: -1, numTris: -1, numWeights: -1, verts: 0, tris: 0, weights: 0 };
  const open = cursor.expect(Tok.Open, '{', 'after mesh');
  for (;;) {
    // The reference names the mesh after a `// meshes: NAME` comment in its block.
    for (let comment = cursor.comment(); comment; comment = cursor.comment()) {
      const at = comment.text.indexOf('meshes:');
      if (at >= 0) m.name = comment.text.slice(at + 'meshes:'.length).trim();
    }
    // vert, tri and weight lines (nearly all of a mesh) without a token object, each in a small
    // function of its own (the optimising compiler inlines the cursor's steps there).
    if (cursor.takeWord('vert')) vertLine(cursor, m, c);
    else if (cursor.takeWord('tri')) triLine(cursor, m, c);
    else if (cursor.takeWord('weight')) weightLine(cursor, m, c, jointCount);
    else if (!meshKeyword(cursor, open, m, c)) break;
  }
  const short = (n: number, declared: number, what: string): void => {
    if (n < Math.max(declared, 0)) throw errorAt(open, 'md5-count', `mesh: ${what} says ${declared}, the block has ${n}`);
  };
  short(c.verts, c.numVerts, 'numverts');
  short(c.tris, c.numTris, 'numtris');
  short(c.weights, c.numWeights, 'numweights');
  let references = 0;
  for (let v = 0; v < c.verts; v++) {
    const start = m.verts[4 * v + 2], n = m.verts[4 * v + 3];
    if (start + n > c.weights) {
      throw new ReadError('vert-weight-range', `vert ${v}: weights ${start}..${start + n - 1} are out of range (numweights ${c.weights})`, m.vertLines[v], 0, 0);
    }
    references += n;
  }
  // Each vertex is the sum of its run of weights: runs that overlap without end made the time grow
  // with the square of the file (20,000 verts each of all 20,000 weights, 1.4 MB: 12 s).
  if (references > Math.max(MAX_WEIGHT_REFERENCES * c.weights, MAX_WEIGHT_REFERENCES_FLOOR)) {
    throw errorAt(open, 'vert-weight-range', `mesh: its ${c.verts} verts take ${references.toLocaleString('en-US')} weights in all, more than ${MAX_WEIGHT_REFERENCES} times its ${c.weights} weights (exporters give each vert a run of its own): not read`);
  }
  return m;
}

/** The mesh block's other keywords (shader, the counts) and its `}`: false at the `}`. */
function meshKeyword(cursor: Cursor, open: Md5Token, m: Md5Mesh, c: MeshCounts): boolean {
  const t = cursor.peek();
  if (!t) throw errorAt(open, 'unterminated-block', "unterminated block: 'mesh {' has no closing '}'");
  cursor.next('}');
  if (t.kind === Tok.Close) return false;
  switch (t.text) {
    case 'shader':
      m.shader = cursor.expect(Tok.String, '"', 'around the shader name').text;
      break;
    case 'numverts':
      if (c.numVerts >= 0) throw errorAt(t, 'md5-syntax', 'a second numverts in this mesh (its vert lines would be lost)');
      c.numVerts = count(cursor, t);
      m.verts = new Float64Array(4 * room(cursor, c.numVerts, 'vert 0(0 0)0 0'.length));
      m.vertLines = new Int32Array(room(cursor, c.numVerts, 'vert 0(0 0)0 0'.length));
      break;
    case 'numtris':
      if (c.numTris >= 0) throw errorAt(t, 'md5-syntax', 'a second numtris in this mesh (its tri lines would be lost)');
      c.numTris = count(cursor, t);
      m.tris = new Int32Array(3 * room(cursor, c.numTris, 'tri 0 0 0 0'.length));
      break;
    case 'numweights':
      if (c.numWeights >= 0) throw errorAt(t, 'md5-syntax', 'a second numweights in this mesh (its weight lines would be lost)');
      c.numWeights = count(cursor, t);
      m.weights = new Float64Array(5 * room(cursor, c.numWeights, 'weight 0 0 0(0 0 0)'.length));
      break;
    default:
      throw errorAt(t, 'md5-syntax', `'${t.text}' is not a mesh keyword (shader, numverts, vert, numtris, tri, numweights, weight)`);
  }
  return true;
}

/** `vert i ( u v ) start count`, its keyword taken. */
function vertLine(cursor: Cursor, m: Md5Mesh, c: MeshCounts): void {
  if (c.numVerts < 0) throw cursor.errorAtTaken('md5-syntax', 'vert before numverts');
  const line = cursor.takenLine;
  const i = index(cursor, 'vert', c.verts, c.numVerts, 'numverts');
  cursor.tuple(2, 'the texture coordinates', m.verts, 4 * i);
  const start = cursor.number('the first weight', true);
  const startLine = cursor.takenLine, startColumn = cursor.takenColumn, startEnd = cursor.takenEnd;
  const n = cursor.number('the weight count', true);
  if (start < 0 || n < 0) throw new ReadError('vert-weight-range', `vert ${i}: weights ${start}, ${n} cannot be negative`, startLine, startColumn, startEnd);
  m.verts[4 * i + 2] = start;
  m.verts[4 * i + 3] = n;
  m.vertLines[i] = line;
  c.verts++;
}

/** `tri i a b c`, its keyword taken. */
function triLine(cursor: Cursor, m: Md5Mesh, c: MeshCounts): void {
  if (c.numTris < 0) throw cursor.errorAtTaken('md5-syntax', 'tri before numtris');
  const i = index(cursor, 'tri', c.tris, c.numTris, 'numtris');
  for (let k = 0; k < 3; k++) {
    const v = cursor.number('a vertex index', true);
    if (c.numVerts < 0 || v < 0 || v >= c.numVerts) throw cursor.errorAtTaken('face-index-range', `tri ${i}: vertex ${v} is out of range (numverts ${Math.max(c.numVerts, 0)})`);
    m.tris[3 * i + k] = v;
  }
  c.tris++;
}

/** `weight i joint bias ( x y z )`, its keyword taken. */
function weightLine(cursor: Cursor, m: Md5Mesh, c: MeshCounts, jointCount: number): void {
  if (c.numWeights < 0) throw cursor.errorAtTaken('md5-syntax', 'weight before numweights');
  const i = index(cursor, 'weight', c.weights, c.numWeights, 'numweights');
  const j = cursor.number('the joint of the weight', true);
  if (j < 0 || j >= jointCount) throw cursor.errorAtTaken('weight-joint-range', `weight ${i}: joint ${j} does not exist (the joints block has ${jointCount}${jointCount > 0 ? `: 0..${jointCount - 1}` : ''})`);
  m.weights[5 * i] = j;
  m.weights[5 * i + 1] = cursor.number('the bias of the weight');
  cursor.tuple(3, 'the weight position', m.weights, 5 * i + 2);
  c.weights++;
}

/** Rotates p by the quaternion q (x y z w at q[3..6]) as the reference does: p + 2 q × (q × p + w p). */
function rotate(q: Float64Array, x: number, y: number, z: number, out: number[]): void {
  const qx = q[3], qy = q[4], qz = q[5], qw = q[6];
  const cx = qy * z - qz * y + qw * x, cy = qz * x - qx * z + qw * y, cz = qx * y - qy * x + qw * z;
  out[0] = x + 2 * (qy * cz - qz * cy);
  out[1] = y + 2 * (qz * cx - qx * cz);
  out[2] = z + 2 * (qx * cy - qy * cx);
}

/** The SourceModel of an md5mesh: vertices from the weights, base poses made parent-relative. */
function meshModel(joints: Md5Joint[], meshes: Md5Mesh[]): SourceModel {
  const model = emptySourceModel();
  let vertexCount = 0, triangleCount = 0;
  for (const m of meshes) {
    vertexCount += m.vertLines.length;
    triangleCount += m.tris.length / 3;
  }
  const positions = new Float64Array(4 * vertexCount);
  const texcoords = new Float64Array(2 * vertexCount);
  const bones = new Uint8Array(4 * vertexCount);
  const blendWeights = new Float64Array(4 * vertexCount);
  const vertexLines = new Int32Array(vertexCount);
  const triangles = new Int32Array(3 * triangleCount);
  const sections: SourceSection[] = [];
  const p = [0, 0, 0];
  /** A vertex's (joint, bias) pairs: scratch, one vertex at a time. */
  let pairs = new Float64Array(16);
  let v0 = 0, t0 = 0;
  for (const m of meshes) {
    const n = m.vertLines.length;
    for (let v = 0; v < n; v++) {
      const start = m.verts[4 * v + 2], count = m.verts[4 * v + 3];
      let x = 0, y = 0, z = 0;
      if (pairs.length < 2 * count) pairs = new Float64Array(2 * count);
      for (let k = 0; k < count; k++) {
        const w = 5 * (start + k);
        const joint = joints[m.weights[w]];
        const bias = m.weights[w + 1];
        rotate(joint.pose, m.weights[w + 2], m.weights[w + 3], m.weights[w + 4], p);
        x += (p[0] + joint.pose[0]) * bias;
        y += (p[1] + joint.pose[1]) * bias;
        z += (p[2] + joint.pose[2]) * bias;
        pairs[2 * k] = m.weights[w];
        pairs[2 * k + 1] = bias;
      }
      const o = v0 + v;
      positions[4 * o] = x;
      positions[4 * o + 1] = y;
      positions[4 * o + 2] = z;
      positions[4 * o + 3] = 1;
      texcoords[2 * o] = m.verts[4 * v];
      texcoords[2 * o + 1] = m.verts[4 * v + 1];
      blendCombo(pairs, 0, 2 * count, bones, blendWeights, 4 * o);
      vertexLines[o] = m.vertLines[v];
    }
    const nt = m.tris.length / 3;
    // The reference keeps a mesh only when it has both vertices and triangles.
    if (nt > 0 && n > 0) sections.push({ mesh: m.name, material: m.shader, firstTriangle: t0, line: m.line });
    for (let k = 0; k < 3 * nt; k++) triangles[3 * t0 + k] = m.tris[k] + v0;
    v0 += n;
    t0 += nt;
  }
  // Parent-relative base poses, from the last joint back (a parent still in model space).
  const poses = new Float64Array(POSE_STRIDE * joints.length);
  joints.forEach((j, i) => poses.set(j.pose, POSE_STRIDE * i));
  for (let i = joints.length - 1; i >= 0; i--) {
    const parent = joints[i].parent;
    if (parent >= 0) relativeTo(poses, POSE_STRIDE * parent, POSE_STRIDE * i);
  }
  Object.assign(model, {
    vertexCount,
    vertexLines,
    positions,
    texcoords: vertexCount > 0 ? texcoords : null,
    texcoordWidth: 2,
    blendBones: vertexCount > 0 ? bones : null,
    blendWeights: vertexCount > 0 ? blendWeights : null,
    triangles,
    triangleGroup: new Int32Array(triangleCount),
    triangleLines: new Int32Array(0),
    // One smoothing group, split where texture coordinates differ (the reference's MD5 rule).
    groups: [{ key: -1, threshold: -1, uv: true, used: true }],
    sections,
    joints: joints.map(({ name, parent }) => ({ name, parent })),
    basePoses: poses,
    basePoseCount: joints.length,
  });
  return model;
}

/** child = parent⁻¹ · child for poses of rotation and translation (scale 1), w kept <= 0. */
function relativeTo(poses: Float64Array, parent: number, child: number): void {
  const conj = Float64Array.of(0, 0, 0, -poses[parent + 3], -poses[parent + 4], -poses[parent + 5], poses[parent + 6]);
  const p = [0, 0, 0];
  rotate(conj, poses[child] - poses[parent], poses[child + 1] - poses[parent + 1], poses[child + 2] - poses[parent + 2], p);
  poses[child] = p[0];
  poses[child + 1] = p[1];
  poses[child + 2] = p[2];
  const ax = conj[3], ay = conj[4], az = conj[5], aw = conj[6];
  const bx = poses[child + 3], by = poses[child + 4], bz = poses[child + 5], bw = poses[child + 6];
  let x = aw * bx + ax * bw + ay * bz - az * by;
  let y = aw * by - ax * bz + ay * bw + az * bx;
  let z = aw * bz + ax * by - ay * bx + az * bw;
  let w = aw * bw - ax * bx - ay * by - az * bz;
  if (w > 0) {
    x = -x; y = -y; z = -z; w = -w;
  }
  poses[child + 3] = x;
  poses[child + 4] = y;
  poses[child + 5] = z;
  poses[child + 6] = w;
}

interface Md5Hierarchy {
  name: string;
  parent: number;
  flags: number;
  start: number;
  line: number;
}

/** Reads an .md5anim; `name` names its animation (the file name without its extension). */
export function readMd5Anim(text: string, name: string): SourceRead {
  const diagnostics: IqeDiagnostic[] = [];
  try {
    return { model: md5Anim(open(text), name, diagnostics), diagnostics };
  } catch (error) {
    return failed(text, error);
  }
}

function md5Anim(cursor: Cursor, name: string, diagnostics: IqeDiagnostic[]): SourceModel {
  const hierarchy: Md5Hierarchy[] = [];
  const base: Float64Array[] = [];
  const frames: { index: number; values: Float64Array; token: Md5Token }[] = [];
  let numFrames = -1, numJoints = -1, components = -1, frameRate = 0;
  let hierarchyToken: Md5Token | null = null;
  for (let t = cursor.peek(); t; t = cursor.peek()) {
    cursor.next('a keyword');
    if (t.kind !== Tok.Word) throw errorAt(t, 'md5-syntax', `expected a keyword (numFrames, hierarchy, frame, ...), found '${t.text}'`);
    switch (t.text) {
      case 'commandline':
        cursor.expect(Tok.String, '"', 'around the command line');
        break;
      case 'numFrames':
        numFrames = count(cursor, t);
        break;
      case 'numJoints':
        numJoints = count(cursor, t);
        break;
      case 'frameRate':
        frameRate = cursor.number('the frame rate');
        break;
      case 'numAnimatedComponents':
        components = count(cursor, t);
        break;
      case 'bounds':
        skipBlock(cursor, t);
        break;
      case 'hierarchy':
        hierarchyToken = t;
        block(cursor, t, () => {
          const jointName = cursor.expect(Tok.String, '"', 'around a joint name');
          const parent = cursor.number('the parent joint', true);
          if (parent < -1 || parent >= hierarchy.length) throw cursor.errorAtTaken('joint-parent', `joint ${hierarchy.length} ('${jointName.text}'): parent ${parent} is not an earlier joint (-1 for a root)`);
          const flags = cursor.number('the flags', true);
          const start = cursor.number('the first component', true);
          if (start < 0) throw cursor.errorAtTaken('frame-values', `joint '${jointName.text}': its first component ${start} cannot be negative`);
          hierarchy.push({ name: jointName.text, parent, flags: flags & 63, start, line: jointName.line });
        });
        if (numJoints >= 0 && numJoints !== hierarchy.length) throw errorAt(t, 'md5-count', `numJoints says ${numJoints}, the hierarchy has ${hierarchy.length}`);
        break;
      case 'baseframe':
        block(cursor, t, () => {
          const pose = new Float64Array(6);
          cursor.tuple(3, 'the base position', pose, 0);
          cursor.tuple(3, 'the base orientation', pose, 3);
          base.push(pose);
        });
        if (base.length !== hierarchy.length) throw errorAt(t, 'md5-count', `the baseframe has ${base.length} poses, the hierarchy ${hierarchy.length} joints`);
        break;
      case 'frame': {
        const index = cursor.number('the frame number', true);
        if (numFrames < 0 || index < 0 || index >= numFrames) throw cursor.errorAtTaken('frame-index-range', `frame ${index} is out of range (numFrames ${Math.max(numFrames, 0)})`);
        const values: number[] = [];
        block(cursor, t, () => {
          values.push(cursor.number('a frame value'));
        });
        if (components < 0) throw errorAt(t, 'md5-syntax', 'frame before numAnimatedComponents');
        if (values.length < components) throw errorAt(t, 'frame-values', `frame ${index} has ${values.length} values, numAnimatedComponents says ${components}`);
        if (values.length > components) {
          diagnostics.push(lineNote('warning', 'frame-values', `frame ${index} has ${values.length} values, numAnimatedComponents says ${components}: the extra ones are ignored`, t.line, t.column, t.end));
        }
        frames.push({ index, values: Float64Array.from(values), token: t });
        break;
      }
      default:
        throw errorAt(t, 'md5-syntax', `'${t.text}' is not an md5anim keyword (MD5Version, commandline, numFrames, numJoints, frameRate, numAnimatedComponents, hierarchy, bounds, baseframe, frame)`);
    }
  }
  if (!hierarchyToken) throw new ReadError('md5-syntax', 'an md5anim needs a hierarchy block', 0, 0, 0);
  if (base.length !== hierarchy.length) throw errorAt(hierarchyToken, 'md5-count', 'an md5anim needs a baseframe block, one pose per joint of the hierarchy');
  for (const h of hierarchy) {
    let animated = 0;
    for (let b = 0; b < 6; b++) if (h.flags & (1 << b)) animated++;
    if (animated > 0 && h.start + animated > components) {
      throw new ReadError('frame-values', `joint '${h.name}' animates components ${h.start}..${h.start + animated - 1}, numAnimatedComponents says ${components}`, h.line, 0, 0);
    }
  }
  if (numFrames >= 0 && frames.length !== numFrames) {
    const at = hierarchyToken;
    diagnostics.push(lineNote('warning', 'md5-count', `numFrames says ${numFrames}, the file has ${frames.length} frames: those written are compiled`, at.line, at.column, at.end));
  }
  const jointCount = hierarchy.length;
  if (!posesFit(jointCount * frames.length, cursor.textLength)) {
    throw errorAt(hierarchyToken, 'md5-count', `${frames.length} frames of ${jointCount} joints are ${posesTooMany(jointCount * frames.length, cursor.textLength)} (joints no component animates are copied into every frame)`);
  }
  const model = emptySourceModel();
  const framePoses = new Float64Array(POSE_STRIDE * jointCount * frames.length);
  const framePoseStart = new Int32Array(frames.length + 1);
  const values = new Float64Array(6);
  frames.forEach((frame, f) => {
    framePoseStart[f] = f * jointCount;
    hierarchy.forEach((h, j) => {
      values.set(base[j]);
      let next = h.start;
      for (let b = 0; b < 6; b++) if (h.flags & (1 << b)) values[b] = frame.values[next++];
      poseFromQuaternion(framePoses.subarray(POSE_STRIDE * (f * jointCount + j), POSE_STRIDE * (f * jointCount + j + 1)), values, 0, 6);
    });
  });
  framePoseStart[frames.length] = frames.length * jointCount;
  const first = frames[0]?.token ?? hierarchyToken;
  Object.assign(model, {
    joints: hierarchy.map(({ name: jointName, parent }) => ({ name: jointName, parent })),
    framePoses,
    framePoseStride: POSE_STRIDE,
    frameCount: frames.length,
    framePoseStart,
    animations: [{ name, framerate: frameRate, flags: 0, firstFrame: 0, frameCount: frames.length, line: first.line, column: first.column }],
  });
  return model;
}
