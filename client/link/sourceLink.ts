// The link between an IQE text and its preview: a triangle clicked in the preview puts the text's
// cursor on its `fa`/`fm` line and marks the `vp` lines of its corners; the cursor in the text
// highlights in the preview the vertex, face or joint it is on. Through the compile's source map
// (core/compile/sourceMap.ts), used only while it is of the text the editor holds.
import * as vscode from 'vscode';
import { attributeVertex, commandOf, type CompileSourceMap, SourceLineIndex } from '../../core/compile/sourceMap';
import type { Highlight, HostToWebview, PickedMessage } from '../../core/protocol';

/** How long the cursor must rest before the preview highlights what it is on, ms. */
const CURSOR_DEBOUNCE_MS = 60;

let faceDecoration: vscode.TextEditorDecorationType | undefined;
let vertexDecoration: vscode.TextEditorDecorationType | undefined;

/** The two line marks (made once, shared by every link). */
function decorations(): { face: vscode.TextEditorDecorationType; vertex: vscode.TextEditorDecorationType } {
  faceDecoration ??= vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.rangeHighlightForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  vertexDecoration ??= vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.wordHighlightStrongBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.wordHighlightStrongForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  return { face: faceDecoration, vertex: vertexDecoration };
}

/** What the link last did, for tests (iqmTools.previewStatus). */
export interface SourceLinkStatus {
  /** The picked triangle's lines: its face and its corners' vp, 0-based. */
  picked: { triangle: number; face: number; vertices: number[] } | null;
  /** The last highlight sent to the preview. */
  highlight: { line: number; target: Highlight | null } | null;
}

export class SourceLink implements vscode.Disposable {
  private index: SourceLineIndex | null = null;
  /** The document version the map is of (null: the file on disk, no open document). */
  private version: number | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscriptions: vscode.Disposable[];
  readonly status: SourceLinkStatus = { picked: null, highlight: null };

  constructor(
    private readonly uri: vscode.Uri,
    private readonly post: (message: HostToWebview) => void,
  ) {
    this.subscriptions = [
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (this.same(e.textEditor.document)) this.schedule(e.textEditor);
      }),
    ];
  }

  /** The map of the model now drawn, and which text version it was compiled from. */
  setMap(map: CompileSourceMap | undefined, version: number | null): void {
    this.index = map ? new SourceLineIndex(map) : null;
    this.version = version;
    this.clearMarks();
    const editor = this.editor();
    if (editor) this.schedule(editor);
  }

  /** The preview's click: the cursor to the face line, its corners' vp lines marked. */
  async picked(pick: PickedMessage | null): Promise<void> {
    if (!pick || !this.index) {
      this.status.picked = null;
      this.clearMarks();
      return;
    }
    const { face, vertices } = this.index.linesOf(pick.triangle);
    this.post({ type: 'pickedSource', triangle: pick.triangle, face, vertices });
    this.status.picked = { triangle: pick.triangle, face, vertices };
    if (face < 0) return;
    const doc = await vscode.workspace.openTextDocument(this.uri);
    if (!this.current(doc)) {
      vscode.window.setStatusBarMessage('$(sync) The preview is being updated to the text: click again once it is drawn', 4000);
      return;
    }
    const shown = this.editor();
    const position = new vscode.Position(face, 0);
    const editor = await vscode.window.showTextDocument(doc, {
      viewColumn: shown?.viewColumn ?? vscode.ViewColumn.Beside,
      preserveFocus: true,
      selection: new vscode.Range(position, position),
    });
    editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    const marks = decorations();
    const lineRange = (line: number) => new vscode.Range(line, 0, line, 0);
    editor.setDecorations(marks.face, [lineRange(face)]);
    editor.setDecorations(marks.vertex, [...new Set(vertices.filter((l) => l >= 0))].map(lineRange));
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.clearMarks();
    for (const s of this.subscriptions) s.dispose();
  }

  private same(doc: vscode.TextDocument): boolean {
    return doc.uri.toString() === this.uri.toString();
  }

  private editor(): vscode.TextEditor | undefined {
    return vscode.window.visibleTextEditors.find((e) => this.same(e.document));
  }

  /** The map is of this text: the version it was compiled from (a map from disk: while the text is unedited). */
  private current(doc: vscode.TextDocument): boolean {
    return this.index !== null && (this.version === null ? !doc.isDirty : doc.version === this.version);
  }

  private schedule(editor: vscode.TextEditor): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.highlightAt(editor), CURSOR_DEBOUNCE_MS);
  }

  /** The preview highlights what the cursor's line became (nothing while the map is stale). */
  private highlightAt(editor: vscode.TextEditor): void {
    const doc = editor.document;
    const line = editor.selection.active.line;
    let target: Highlight | null = null;
    if (this.index && this.current(doc) && line < doc.lineCount) {
      const text = (l: number) => doc.lineAt(l).text;
      const vertex = commandOf(text(line)) === 'vp' ? this.index.sourceVertexAt(line) : attributeVertex(text, line);
      const found = this.index.targetAt(line, vertex);
      if (found?.kind === 'vertex') target = { kind: 'vertices', indices: found.vertices };
      else if (found?.kind === 'face') target = { kind: 'triangles', indices: found.triangles };
      else if (found) target = { kind: 'joint', joint: found.joint };
    }
    const last = this.status.highlight;
    if (last && last.line === line && JSON.stringify(last.target) === JSON.stringify(target)) return;
    this.status.highlight = { line, target };
    this.post({ type: 'highlight', target });
  }

  private clearMarks(): void {
    const editor = this.editor();
    if (!editor || !faceDecoration || !vertexDecoration) return;
    editor.setDecorations(faceDecoration, []);
    editor.setDecorations(vertexDecoration, []);
  }
}
