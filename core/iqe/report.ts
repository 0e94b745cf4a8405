// Turns the compact problem lists into diagnostics: re-parses each reported line to find its
// columns, writes the message, applies the `ignore` and severity settings, and caps the count
// with one `too-many-problems` entry. Only reported problems cost an object.
import { UNWEIGHTED_EFFECT } from '../model/model';
import { type Chunk, chunkIndexOfLine, lineContentEnd, lineStartOf } from './chunk';
import { CODES, defaultSeverity, type Code } from './codes';
import { ATTRIBUTE_COMMANDS, COMMAND_NAMES, Cmd, suggestCommand, VERTEXARRAY_FORMATS, VERTEXARRAY_TYPES } from './commands';
import type { IqeDiagnostic, Range, Severity, ValidateOptions } from './diagnostic';
import { line, LineProblem, LINE_PROBLEM_COUNT, MAX_LINE_BYTES, parseCount, parseLine } from './line';
import { Target } from './problems';
import type { Analysis } from './validate';

export const DEFAULT_MAX_PROBLEMS = 1000;

const LINE_PROBLEM_CODES: readonly Code[] = (() => {
  const codes: Code[] = [];
  codes[LineProblem.Header] = 'header';
  codes[LineProblem.NumberInvalid] = 'number-invalid';
  codes[LineProblem.NumberNonFinite] = 'number-invalid';
  codes[LineProblem.LineTooLong] = 'line-too-long';
  codes[LineProblem.UnknownCommand] = 'unknown-command';
  codes[LineProblem.UnterminatedQuote] = 'unterminated-quote';
  codes[LineProblem.QuaternionZero] = 'quaternion-zero';
  codes[LineProblem.QuaternionNotUnit] = 'quaternion-not-unit';
  codes[LineProblem.PmDegenerate] = 'pm-degenerate';
  codes[LineProblem.PmNotOrthogonal] = 'pm-not-orthogonal';
  codes[LineProblem.VertexarrayType] = 'vertexarray-format';
  codes[LineProblem.VertexarrayFormat] = 'vertexarray-format';
  codes[LineProblem.VertexarraySize] = 'vertexarray-format';
  codes[LineProblem.VxW] = 'vx-w';
  codes[LineProblem.CommentTrailingText] = 'comment-trailing-text';
  codes[LineProblem.WeightDropped] = 'weights-invalid';
  codes[LineProblem.WeightDuplicateJoint] = 'weights-invalid';
  codes[LineProblem.WeightNone] = 'weights-invalid';
  codes[LineProblem.BlendInfluences] = 'blend-influences';
  codes[LineProblem.FaceTooFew] = 'face-too-few-indices';
  codes[LineProblem.Polygon] = 'polygon-triangulated';
  codes[LineProblem.FsTooFew] = 'fs-count';
  codes[LineProblem.SmoothangleReference] = 'reference-smoothing';
  codes[LineProblem.JointParentNegative] = 'joint-parent-negative';
  codes[LineProblem.ValueMissing] = 'value-missing';
  codes[LineProblem.FramerateNegative] = 'animation-command-outside';
  return codes;
})();

/** Line-problem bits whose code is an error by default. */
const ERROR_LINE_BITS = LINE_PROBLEM_CODES.reduce((bits, code, bit) => (defaultSeverity(code) === 'error' ? bits | (1 << bit) : bits), 0);

/** Whether a line's problem bits (Chunk.flags) hold an error, with the default severities. */
export function lineHasError(bits: number): boolean {
  return (bits & ERROR_LINE_BITS) !== 0;
}

/**
 * Whether the cross-line analysis found an error, with the default severities: what decides,
 * without building any diagnostic, that a file is not compiled.
 */
export function analysisHasError(analysis: Analysis): boolean {
  const { problems } = analysis;
  for (let p = 0; p < problems.length; p++) if (defaultSeverity(CODES[problems.code(p)]) === 'error') return true;
  return false;
}

/** A short, readable form of a number for messages. */
function show(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}

/** Where each line of the document is: binary search over chunks. */
class LineLocator {
  /** The text of the chunk that holds the line last loaded; offsets below are relative to it. */
  private text = '';
  constructor(private readonly chunks: readonly Chunk[]) {}

  /** The line whose parse `line` holds (-1: none); a long line with many problems is parsed once, not once per problem. */
  private loaded = -1;
  /** parseCount.lines after that parse: another parse since (between two diagnostics asked of eachDiagnostic) replaced `line`. */
  private loadedParse = -1;

  /** Parses line `lineNumber` into `line` (unless it is there already) and returns its content start (or -1 if absent). */
  load(lineNumber: number): number {
    if (lineNumber === this.loaded && parseCount.lines === this.loadedParse) return this.lineStartOffset;
    const index = chunkIndexOfLine(this.chunks, lineNumber);
    this.loaded = -1;
    if (index < 0) return -1;
    const c = this.chunks[index];
    this.text = c.text;
    const start = lineStartOf(c, lineNumber - c.firstLine);
    const end = lineContentEnd(c.text, start, lineStartOf(c, lineNumber - c.firstLine + 1));
    this.kind = parseLine(this.text, start, end, lineNumber === 0);
    this.lineStartOffset = start;
    this.lineEndOffset = end;
    this.loaded = lineNumber;
    this.loadedParse = parseCount.lines;
    return start;
  }

  lineStartOffset = 0;
  lineEndOffset = 0;
  /** The command of the line last loaded. */
  kind = Cmd.Blank;

  /** The range of `target` on the line last loaded. */
  range(lineNumber: number, target: number): Range {
    const base = this.lineStartOffset;
    let start: number;
    let end: number;
    if (target >= 0 && target < line.count) {
      start = line.spans[2 * target];
      end = line.spans[2 * target + 1];
    } else if (target === Target.Name && line.nameStart >= 0 && line.nameEnd > line.nameStart) {
      start = line.nameStart;
      end = line.nameEnd;
    } else if (target === Target.Command || target === Target.Name) {
      start = line.commandStart;
      end = line.commandEnd;
    } else {
      start = line.commandStart;
      end = this.lineEndOffset;
      while (end > start && /\s/.test(this.text[end - 1])) end--;
    }
    return { line: lineNumber, column: start - base, endLine: lineNumber, endColumn: end - base };
  }

  slice(start: number, end: number): string {
    return this.text.slice(start, end);
  }
}

function lineProblemMessage(problem: LineProblem, kind: Cmd, locator: LineLocator): string {
  const arg = line.problemArg[problem];
  const token = (): string => locator.slice(line.problemStart[problem], line.problemEnd[problem]);
  const command = COMMAND_NAMES[kind] ?? '';
  switch (problem) {
    case LineProblem.Header:
      return "The first line must be '# Inter-Quake Export': the reference compiler refuses a file without it (\"failed reading\").";
    case LineProblem.NumberInvalid: {
      const t = token();
      const hint = t.includes(',') ? ' (a decimal comma? IQE numbers use a point)' : t.includes('/') ? " (OBJ-style 'v/vt' indices are not IQE)" : '';
      return `'${t}' is not a number${hint}: the reference compiler reads only the numeric start of it, if any, and gives this and every later value on the line its default.`;
    }
    case LineProblem.NumberNonFinite:
      return `'${token()}' is not a finite number: infinities and NaNs make the model unusable.`;
    case LineProblem.LineTooLong:
      return `This line is ${show(arg)} bytes long: the reference compiler reads lines in ${MAX_LINE_BYTES}-byte pieces and would parse the rest as a line of its own.`;
    case LineProblem.UnknownCommand: {
      const word = token();
      const suggestion = suggestCommand(word);
      return suggestion
        ? `Unknown command '${word}': did you mean '${suggestion}'? Commands are case-sensitive and need a space after them. The line is ignored.`
        : `Unknown command '${word}': the line is ignored.`;
    }
    case LineProblem.UnterminatedQuote:
      return 'The quoted name has no closing quote: it ends at the end of the line (the reference compiler would keep the line break in the name).';
    case LineProblem.QuaternionZero:
      return 'The rotation quaternion has zero length: the rotation is undefined.';
    case LineProblem.QuaternionNotUnit:
      return line.count >= 7
        ? `The rotation quaternion has length ${show(arg)}, not 1: it is normalised (the reference compiler writes it as given, which scales and skews the joint).`
        : `The quaternion's x, y, z have length ${show(arg)}, more than 1: w cannot be derived (it becomes -0) and the rotation is not unit length.`;
    case LineProblem.PmDegenerate:
      return "A column of the 'pm' rotation matrix has zero length: the pose becomes NaN.";
    case LineProblem.PmNotOrthogonal:
      return `The 'pm' rotation matrix is not orthogonal after removing scale (two columns are ${show(arg)}° apart, not 90°): its shear is lost.`;
    case LineProblem.VertexarrayType:
      // Review fix: NaN marks a missing word (line.ts), reported at the command word.
      if (Number.isNaN(arg)) return `'vertexarray' without a TYPE: the declaration is ignored. Types: ${VERTEXARRAY_TYPES.join(', ')}.`;
      return `Unknown vertex array type '${token()}': the declaration is ignored. Types: ${VERTEXARRAY_TYPES.join(', ')}.`;
    case LineProblem.VertexarrayFormat:
      if (Number.isNaN(arg)) return `'vertexarray' without a FORMAT: the declaration is ignored (the reference compiler crashes on it). Formats: ${VERTEXARRAY_FORMATS.join(', ')}.`;
      return `Unknown vertex array format '${token()}': the declaration is ignored (the reference compiler crashes on it). Formats: ${VERTEXARRAY_FORMATS.join(', ')}.`;
    case LineProblem.VertexarraySize:
      return Number.isNaN(arg) || line.problemStart[problem] === line.problemEnd[problem] || token() === ''
        ? 'The vertex array size is missing: it is clamped to 1.'
        : `Vertex array size ${token()} is outside 1..4: it is clamped to ${Math.min(4, Math.max(1, arg))}.`;
    case LineProblem.VxW:
      return `Tangent w is ${show(arg)}: it should be 1 or -1 (the bitangent's handedness). It is written as given.`;
    case LineProblem.CommentTrailingText:
      return "Text after 'comment' on the same line is dropped: the comment section starts on the next line.";
    case LineProblem.WeightDropped:
      return `Blend weight ${show(arg)} is not above 0.001: this influence is dropped.`;
    case LineProblem.WeightDuplicateJoint:
      return `Joint ${show(arg)} appears twice in this blend: the influences are not merged and take two of the four slots.`;
    case LineProblem.WeightNone:
      return `This vertex has no usable blend weight: ${UNWEIGHTED_EFFECT}.`;
    case LineProblem.BlendInfluences:
      return `${show(arg)} influences: only the 4 largest are kept and renormalised.`;
    case LineProblem.FaceTooFew:
      return `A face needs at least 3 indices; this one has ${show(arg)} and makes no triangle.`;
    case LineProblem.Polygon:
      return `A polygon of ${show(arg)} vertices: it is fan-triangulated into ${show(arg - 2)} triangles.`;
    case LineProblem.FsTooFew:
      return `'fs' needs at least 3 flags; this one has ${show(arg)} and is ignored.`;
    case LineProblem.SmoothangleReference:
      return `smoothangle ${show(arg)}: this compiler smooths faces up to ${show(Math.min(Math.abs(arg), 180))}° apart; the reference compiler uses ${show(Math.min(Math.abs(arg), 180 - Math.abs(arg)))}° (it treats 180 as faceted and A as min(A, 180 - A)).`;
    case LineProblem.JointParentNegative:
      return `Parent ${show(arg)} is below -1: it is written as given (as -1 when it does not fit in 32 bits), and readers treat any negative parent as a root.`;
    case LineProblem.ValueMissing:
      switch (kind) {
        case Cmd.Smoothangle:
          return "'smoothangle' without an angle means 0°: only faces with parallel normals are smoothed.";
        case Cmd.Smoothgroup:
          return "'smoothgroup' without a number leaves the smoothing group unchanged.";
        case Cmd.Framerate:
          return "'framerate' without a number is ignored.";
        default:
          return `'${command}' without a value: the reference compiler uses an uninitialised value.`;
      }
    case LineProblem.FramerateNegative:
      return `Negative framerate ${show(arg)} is clamped to 0.`;
  }
}

/** What a message needs besides the problem's numbers. */
interface MessageContext {
  /** The command of the problem's line. */
  kind: Cmd;
  /** The problem's range on its line. */
  token: string;
  jointCount: number;
  /** The problem's third number (face-index-mesh: one past the mesh's last vertex; attribute-count: the attribute slot). */
  c: number;
}

function problemMessage(code: Code, a: number, b: number, note: string | undefined, context: MessageContext): string {
  switch (code) {
    case 'face-index-range':
      return b === 0
        ? `Face index ${show(a)}, but the file has no vertices: the reference compiler crashes.`
        : `Face index resolves to vertex ${show(a)}, but the file has ${show(b)} vertices (0..${show(b - 1)})${context.kind === Cmd.Fm ? "; 'fm' indices count from the first vertex after the last 'mesh'" : ''}. The reference compiler reads garbage or crashes.`;
    case 'face-index-clamped':
      return `Index ${show(a)} points before the first vertex (${show(b)} vertices precede this line): it is clamped to vertex 0.`;
    case 'face-index-mesh':
      return `'fm' index resolves to vertex ${show(a)}, outside this mesh's vertices (${show(b)}..${show(context.c - 1)}).`;
    case 'attribute-count': {
      const kind = COMMAND_NAMES[context.kind] ?? '?';
      return a > b
        ? `${show(a)} '${kind}' lines for ${show(b)} vertices: this is the first '${kind}' with no matching 'vp'. Every vertex array must be absent or as long as the 'vp' array.`
        : `Only ${show(a)} '${ATTRIBUTE_COMMANDS[context.c]}' lines for ${show(b)} vertices: ${context.kind === Cmd.Mesh ? "this mesh's vertices" : 'this vertex'} (${show(a)}) and every later one have none. Every vertex array must be absent or as long as the 'vp' array (the reference compiler reads garbage).`;
    }
    case 'vx-mixed-forms':
      return `This 'vx' has the ${a === 6 ? '6-value (tangent + bitangent)' : '4-value (tangent + w)'} form, another has the other form: the bitangents end up assigned to the wrong tangents.`;
    case 'reference-vx':
      return "Explicit tangents: the reference compiler assigns 'vx' tangents by output order, so many land on the wrong vertices; this compiler keeps each with its own vertex.";
    case 'reference-smoothing':
      return "'vs' smoothing: the reference compiler compares the 'vs' values of the wrong vertices; this compiler compares each corner's own vertex.";
    case 'joint-parent': {
      const j = Math.floor(b);
      if (a === j) return `Joint ${j} is its own parent: it never reaches a root.`;
      if (context.jointCount <= a) return `Parent ${show(a)} does not exist (joints are numbered from 0; this file has ${context.jointCount}).`;
      if (b !== j) {
        // On a cycle: the note is the cycle from this joint and its length (validate.ts).
        const [path, length] = (note ?? '').split('\u0000');
        const order = a > j ? `; parent ${show(a)} also comes after joint ${j}` : '';
        return `Joints ${path} form a cycle of parents (${length} joints): none of them reaches a root, so their poses cannot be composed (DarkPlaces refuses the file)${order}.`;
      }
      return `Parent ${show(a)} comes after joint ${j}: a parent must be listed before its children (DarkPlaces refuses the file; other loaders compose joints in order and get them wrong).`;
    }
    case 'engine-compat':
      return a === 1
        ? `More than 256 joints (${show(b)}): engines that index joints with a byte (DarkPlaces, FTE) cannot load this model.`
        : `'${VERTEXARRAY_FORMATS[b]}' vertex array: DarkPlaces loads only float and ubyte arrays, and raylib ignores the declared format.`;
    case 'frame-pose-count':
      return `This frame has ${show(a)} poses but there are ${show(b)} joints: poses are dropped or padded, and the rest land on the wrong joints.`;
    case 'animation-empty':
      return 'This animation has no poses: it has 0 frames (the reference compiler gives it the next animation\'s first frame).';
    case 'animation-command-outside':
      return `'${context.token}' before any 'animation' is ignored.`;
    case 'vertexarray-format':
      return a === 1
        ? `A second declaration for '${VERTEXARRAY_TYPES[b]}': the first one wins and this one is ignored.`
        : `'${VERTEXARRAY_TYPES[b]}' is declared but the file has no such data: no array is written.`;
    case 'repeated-section': {
      const [mesh, material] = (note ?? '\u0000').split('\u0000');
      return `Mesh '${mesh}' with material '${material}' appears again after another section: its triangles are merged into the first one (the reference compiler drops them).`;
    }
    case 'degenerate-triangle':
      return b === 0
        ? `Triangle ${show(a + 1)} of this face uses the same vertex twice: it is dropped.`
        : `Triangle ${show(a + 1)} of this face has zero area: it adds nothing to normals and may bridge smoothing between faces.`;
    case 'blend-joint-range':
      if (b === -1) return `Joint index ${show(a)} does not fit in ubyte blend indexes: the reference compiler wraps it to ${show(a & 255)}. Declare 'vertexarray blendindexes ushort 4' or use fewer joints.`;
      if (a < 0) return `Joint index ${show(a)} is negative.`;
      return `Joint index ${show(a)} does not exist (this file has ${show(b)} joints).`;
    case 'weights-invalid':
      return `This vertex has no blend weights while the model has joints and animations: ${UNWEIGHTED_EFFECT}.`;
    case 'base-pose-missing':
      return a < b
        ? `${a === b - 1 ? `Joint ${show(a)} has` : `Joints ${show(a)}..${show(b - 1)} have`} no base pose: the identity is used (the reference compiler writes an all-zero rotation and scale).`
        : `${show(a)} base poses for ${show(b)} joints: the poses after the last joint's are ignored.`;
    case 'fs-count':
      if (a === -1) return `${show(b)} faces after this one have no 'fs' entry: they count as smooth on every edge.`;
      if (a === -2) return `${show(b)} more 'fs' lines than faces: the extra ones are ignored.`;
      return `'fs' has ${show(a)} flags but its face has ${show(b)} indices.`;
    case 'no-faces':
      return `${show(a)} vertices but no 'fa' or 'fm' faces: no mesh is written.`;
    case 'unreferenced-vertex':
      return a === b
        ? `Vertex ${show(a)} is used by no face: it is not written (the reference compiler still counts it in the bounds).`
        : `Vertices ${show(a)}..${show(b)} are used by no face: they are not written (the reference compiler still counts them in the bounds).`;
    case 'comment-swallows':
      return `Everything after 'comment' is comment text: ${show(a)} later lines that look like commands are not read.`;
    default:
      return code;
  }
}

function relatedMessage(code: Code): string {
  switch (code) {
    case 'joint-parent':
      return 'the parent joint';
    case 'attribute-count':
      return 'the other array ends here';
    case 'vx-mixed-forms':
      return 'the other form of vx';
    case 'repeated-section':
      return 'the first section of this mesh and material';
    case 'vertexarray-format':
      return 'the first declaration';
    case 'face-index-mesh':
      return 'the mesh';
    case 'fs-count':
      return 'the face';
    default:
      return 'related';
  }
}

/** Every diagnostic of a validated document, in a list (the language server, tests). */
export function materialize(chunks: readonly Chunk[], analysis: Analysis, options: ValidateOptions): IqeDiagnostic[] {
  return [...eachDiagnostic(chunks, analysis, options)];
}

/**
 * The diagnostics one at a time, in the order `materialize` lists them: each is made when it is
 * asked for, so a caller that prints or streams them (the CLI's check of a file with 100,000
 * problems) never holds more than one (issue 17: an object per problem was 10x a file of short
 * lines).
 */
export function* eachDiagnostic(chunks: readonly Chunk[], analysis: Analysis, options: ValidateOptions): Generator<IqeDiagnostic, void, undefined> {
  const ignore = new Set(options.ignore ?? []);
  const severities = options.severity ?? {};
  const max = Math.max(0, Math.floor(options.maxProblems ?? DEFAULT_MAX_PROBLEMS));
  let ignoredBits = 0;
  for (let bit = 0; bit < LINE_PROBLEM_COUNT; bit++) if (ignore.has(LINE_PROBLEM_CODES[bit])) ignoredBits |= 1 << bit;
  const { problems, commentLine } = analysis;
  const order = problems.order();
  const locator = new LineLocator(chunks);
  let emitted = 0;
  let omitted = 0;
  let firstOmitted: Range | undefined;

  const severityOf = (code: Code): Severity => severities[code] ?? defaultSeverity(code);
  /** The diagnostic when there is room for it; else counted as omitted. */
  const made = (code: Code, range: Range, message: string, related?: IqeDiagnostic['related']): IqeDiagnostic | undefined => {
    if (emitted >= max) {
      omitted++;
      firstOmitted ??= range;
      return undefined;
    }
    emitted++;
    const diagnostic: IqeDiagnostic = { range, severity: severityOf(code), code, message };
    if (related) diagnostic.related = related;
    return diagnostic;
  };

  const global = (p: number): IqeDiagnostic | undefined => {
    const code = CODES[problems.code(p)];
    if (ignore.has(code)) return undefined;
    const lineNumber = problems.line(p);
    if (emitted >= max) {
      omitted++;
      if (!firstOmitted) {
        locator.load(lineNumber);
        firstOmitted = locator.range(lineNumber, problems.target(p));
      }
      return undefined;
    }
    let related: IqeDiagnostic['related'];
    const relatedLine = problems.relatedLine(p);
    if (relatedLine >= 0 && locator.load(relatedLine) >= 0) {
      related = [{ range: locator.range(relatedLine, problems.relatedTarget(p)), message: relatedMessage(code) }];
    }
    locator.load(lineNumber);
    const range = locator.range(lineNumber, problems.target(p));
    const context: MessageContext = {
      kind: locator.kind,
      token: locator.slice(locator.lineStartOffset + range.column, locator.lineStartOffset + range.endColumn),
      jointCount: analysis.jointCount,
      c: problems.c(p),
    };
    if (problems.endLine(p) > lineNumber) {
      const end = problems.endLine(p);
      locator.load(end);
      const last = locator.range(end, Target.Line);
      range.endLine = end;
      range.endColumn = last.endColumn;
    }
    return made(code, range, problemMessage(code, problems.a(p), problems.b(p), problems.notes.get(p), context), related);
  };

  let next = 0;
  for (const chunk of chunks) {
    const { flagged } = chunk;
    for (let f = 0; f < flagged.length; f++) {
      const i = flagged[f];
      const lineNumber = chunk.firstLine + i;
      if (commentLine >= 0 && lineNumber > commentLine) break;
      while (next < order.length && problems.line(order[next]) < lineNumber) {
        const diagnostic = global(order[next++]);
        if (diagnostic) yield diagnostic;
      }
      const bits = chunk.flags[f] & ~ignoredBits;
      if (bits === 0) continue;
      if (emitted >= max) {
        let count = 0;
        for (let b = bits; b !== 0; b &= b - 1) count++;
        omitted += count;
        if (!firstOmitted) {
          locator.load(lineNumber);
          firstOmitted = locator.range(lineNumber, Target.Line);
        }
        continue;
      }
      locator.load(lineNumber);
      const kind = chunk.kind[i] as Cmd;
      // The line's diagnostics are all made before the first is given: the caller may parse
      // another line (into the shared `line`) before asking for the next.
      const onLine: IqeDiagnostic[] = [];
      for (let bit = 0; bit < LINE_PROBLEM_COUNT; bit++) {
        if (!(bits & (1 << bit))) continue;
        const code = LINE_PROBLEM_CODES[bit];
        const start = line.problemStart[bit] - locator.lineStartOffset;
        const end = line.problemEnd[bit] - locator.lineStartOffset;
        const diagnostic = made(code, { line: lineNumber, column: start, endLine: lineNumber, endColumn: end }, lineProblemMessage(bit as LineProblem, kind, locator));
        if (diagnostic) onLine.push(diagnostic);
      }
      yield* onLine;
    }
  }
  while (next < order.length) {
    const diagnostic = global(order[next++]);
    if (diagnostic) yield diagnostic;
  }

  if (omitted > 0 && firstOmitted && !ignore.has('too-many-problems')) {
    yield {
      range: firstOmitted,
      severity: severityOf('too-many-problems'),
      code: 'too-many-problems',
      message: `${omitted} more problems are not shown (iqmTools.diagnostics.maxProblems is ${max}).`,
    };
  }
}
