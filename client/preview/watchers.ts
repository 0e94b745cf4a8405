// What a preview watches to follow its model: the model and the sidecars beside it (on disk, and
// as edited in an editor), the folder's other IQMs where a partner matters, the IQE text as typed,
// and the exact files a source names (companions). Each change calls the panel back; the panel
// decides what to load.
import * as vscode from 'vscode';
import { fileNameOf as basename, folderOf as dirname } from '../../core/paths';
import { sidecarKind } from '../../core/lookup/companions';

export interface ModelWatchHooks {
  /** Load again (debounced by the panel). */
  reload(): void;
  /** True while an editor holds the model's text: its edits count, not the file on disk. */
  followsEditor(): boolean;
  /** True when "Mesh from" / "Clips from" use the folder's other IQMs. */
  partnersMatter(): boolean;
  /** The model's IQE text was edited (an IQE preview only). */
  iqeEdited?: () => void;
  /** The model's IQE text was saved at this version. */
  iqeSaved(version: number): void;
}

/** Watchers of the model at `uri` (in `modelDir`) and of what goes with it; dispose them with the panel. */
export function watchModelFiles(uri: vscode.Uri, modelDir: vscode.Uri, hooks: ModelWatchHooks): vscode.Disposable[] {
  const name = basename(uri.path);
  const out: vscode.Disposable[] = [];
  const watchers: vscode.FileSystemWatcher[] = [
    vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(modelDir, `${name}*`)),
    vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(modelDir, '{animation.cfg,*.skin}')),
  ];
  const onDisk = () => {
    if (!hooks.followsEditor()) hooks.reload();
  };
  for (const w of watchers) out.push(w, w.onDidChange(onDisk), w.onDidCreate(onDisk));
  // "Mesh from" / "Clips from": the folder's other IQMs (a mesh recompiled, a new animation file).
  if (/\.iqm$/i.test(uri.path)) {
    const partners = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(modelDir, '*.[iI][qQ][mM]'));
    const onPartner = (changed: vscode.Uri) => {
      if (hooks.partnersMatter() && changed.path !== uri.path) hooks.reload();
    };
    out.push(partners, partners.onDidChange(onPartner), partners.onDidCreate(onPartner), partners.onDidDelete(onPartner));
  }
  // A sidecar of this model edited (saved or not), or closed unsaved: the preview shows its text.
  const isSidecar = (d: vscode.TextDocument) =>
    d.uri.scheme === uri.scheme && d.uri.authority === uri.authority && sidecarKind(d.uri.path) !== undefined && (dirname(d.uri.path) === modelDir.path || sidecarKind(d.uri.path) === 'shader');
  out.push(
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0 && isSidecar(e.document)) hooks.reload();
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (isSidecar(d)) hooks.reload();
    }),
  );
  const iqeEdited = hooks.iqeEdited;
  if (iqeEdited) {
    const same = (d: vscode.TextDocument) => d.uri.toString() === uri.toString();
    out.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (same(e.document) && e.contentChanges.length > 0) iqeEdited();
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (same(d)) hooks.iqeSaved(d.version);
      }),
      // Closed without saving: the text on disk is what there is again.
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (same(d)) hooks.reload();
      }),
    );
  }
  return out;
}

/**
 * Watchers of the files compiled with a source (a glTF's external .bin, a texture saved by an image
 * editor, an OBJ's .mtl, MD5 animations): named by the source, not found by the model's name, so
 * the folder watchers above miss them. Exact paths, one watcher each.
 */
export function watchCompanionFiles(files: readonly vscode.Uri[], changed: () => void): vscode.Disposable[] {
  const out: vscode.Disposable[] = [];
  for (const file of files) {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(file.with({ path: dirname(file.path) }), basename(file.path)));
    out.push(watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed));
  }
  return out;
}
