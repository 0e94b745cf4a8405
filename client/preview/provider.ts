// The custom editor provider: creates one PreviewPanel per opened preview (panel.ts does the
// rest) and holds what the panels share: the output channel, the engine problems and, for tests,
// the last `rendered` report and the IQE compile counts per document.

import * as vscode from 'vscode';
import type { ClipStateMessage, RenderedMessage } from '../../core/protocol';
import type { Platform } from '../platform';
import type { Comparisons } from '../compare/comparisons';
import { PreviewPanel, type PanelHost } from './panel';

export const VIEW_TYPE = 'iqmTools.preview';
export const IQE_VIEW_TYPE = 'iqmTools.iqePreview';
/** The preview of an OBJ (an "Open With…" option: a text editor stays the default for .obj). */
export const OBJ_VIEW_TYPE = 'iqmTools.objPreview';
/** The preview of a .gltf as the IQM it compiles to (an "Open With…" option: a .gltf is JSON text, which glTF editors edit). */
export const GLTF_VIEW_TYPE = 'iqmTools.gltfPreview';
/** The preview of a .glb, its default editor: VS Code has nothing else to show a binary glTF with (its binary-file page). */
export const GLB_VIEW_TYPE = 'iqmTools.glbPreview';

class PreviewDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {}
}

export class PreviewProvider implements vscode.CustomReadonlyEditorProvider<PreviewDocument>, PanelHost {
  /** Last `rendered` report per document URI (used by tests through a command). */
  readonly lastRendered = new Map<string, RenderedMessage>();
  /** The clips each preview lists and the one it plays, by document URI (the status command gives them). */
  readonly clipStates = new Map<string, ClipStateMessage>();
  /** IQE compiles started per document URI, and how many were cancelled as stale (tests read them through the status command). */
  readonly compiles = new Map<string, { started: number; cancelled: number }>();
  private readonly panels = new Set<PreviewPanel>();
  private output: vscode.OutputChannel | null = null;
  private engineProblems: vscode.DiagnosticCollection | null = null;

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly platform: Platform,
    readonly comparisons: Comparisons,
  ) {}

  openCustomDocument(uri: vscode.Uri): PreviewDocument {
    return new PreviewDocument(uri);
  }

  resolveCustomEditor(document: PreviewDocument, webviewPanel: vscode.WebviewPanel): void {
    const panel = new PreviewPanel(this, document.uri, webviewPanel);
    this.panels.add(panel);
    panel.onDidDispose(() => this.panels.delete(panel));
  }

  /** The open previews of a file (a file can be previewed in several editors). */
  panelsOf(uri: vscode.Uri): PreviewPanel[] {
    const key = uri.toString();
    return [...this.panels].filter((p) => p.uri.toString() === key);
  }

  log(message: string): void {
    if (!this.output) {
      this.output = vscode.window.createOutputChannel('IQM Tools Preview');
      this.context.subscriptions.push(this.output);
    }
    this.output.appendLine(message);
  }

  problems(): vscode.DiagnosticCollection {
    if (!this.engineProblems) {
      this.engineProblems = vscode.languages.createDiagnosticCollection('iqm-tools engine');
      this.context.subscriptions.push(this.engineProblems);
    }
    return this.engineProblems;
  }

  rendered(uri: vscode.Uri, m: RenderedMessage): void {
    this.lastRendered.set(uri.toString(), m);
  }

  clipState(uri: vscode.Uri, m: ClipStateMessage): void {
    this.clipStates.set(uri.toString(), m);
  }

  countCompile(uri: vscode.Uri, field: 'started' | 'cancelled'): void {
    const key = uri.toString();
    const c = this.compiles.get(key) ?? { started: 0, cancelled: 0 };
    c[field]++;
    this.compiles.set(key, c);
  }
}
