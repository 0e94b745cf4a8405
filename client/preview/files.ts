// The preview's file access on the extension host: vscode.workspace.fs for local, remote and
// virtual files alike, as a LookupFs (resolve.ts) for the model's file system, and the companion
// files compiled with a source.

import * as vscode from 'vscode';
import { gatherCompanions } from '../../core/formats/companions';
import type { FormatId } from '../../core/formats/registry';
import { workspaceAccess } from '../fileAccess';
import { dirname, type LookupFs } from './resolve';

/** LookupFs over vscode.workspace.fs for the model's file system (same scheme and authority); open documents by their editor text. */
export function workspaceFs(base: vscode.Uri): LookupFs {
  const uriOf = (path: string) => base.with({ path });
  return {
    async isFile(path) {
      try {
        const st = await vscode.workspace.fs.stat(uriOf(path));
        return (st.type & vscode.FileType.File) !== 0;
      } catch {
        return false;
      }
    },
    async listFolder(path) {
      try {
        return (await vscode.workspace.fs.readDirectory(uriOf(path))).map(([name]) => name);
      } catch {
        return null;
      }
    },
    async readText(path) {
      // An open document's text, saved or not: the preview follows a sidecar file as it is edited.
      const uri = uriOf(path).toString();
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
      if (open) return open.getText();
      try {
        const bytes = await vscode.workspace.fs.readFile(uriOf(path));
        return new TextDecoder('latin1').decode(bytes);
      } catch {
        return null;
      }
    },
    async shaderFiles() {
      try {
        const found = await vscode.workspace.findFiles('**/*.shader', '**/node_modules/**', 500);
        return found.filter((u) => u.scheme === base.scheme && u.authority === base.authority).map((u) => u.path);
      } catch {
        return [];
      }
    },
  };
}

export interface CompanionFiles {
  /** Animation files merged after the source: their names relative to its folder, and bytes. */
  animations: { name: string; bytes: Uint8Array }[];
  resources: { uri: string; bytes: Uint8Array }[];
  /** Every companion file looked for, read or not: a change to one (or its creation) changes the compile. */
  lookedFor: vscode.Uri[];
}

/**
 * The files compiled with a source, as the format registry's companion rules name them
 * (core/formats/companions.ts): the animation files beside an .md5mesh or a mesh SMD (merged after
 * it: its clips), the .mtl files an OBJ names and the .bin and images a glTF names (as resources,
 * by the name the source gives). Unreadable ones are left out: the compile says what it misses.
 */
export async function companionFiles(uri: vscode.Uri, bytes: Uint8Array, format: FormatId): Promise<CompanionFiles> {
  const found = await gatherCompanions(uri.path, bytes, format, workspaceAccess(uri));
  const folder = dirname(uri.path);
  return {
    animations: found.animations.map((a) => ({ name: a.path.slice(folder.length + 1), bytes: a.bytes })),
    resources: found.resources,
    lookedFor: found.lookedFor.map((path) => uri.with({ path })),
  };
}

export function mimeOf(path: string): 'image/x-tga' | 'image/png' | 'image/jpeg' {
  const p = path.toLowerCase();
  if (p.endsWith('.png')) return 'image/png';
  if (p.endsWith('.jpg') || p.endsWith('.jpeg')) return 'image/jpeg';
  return 'image/x-tga';
}

/** A fresh ArrayBuffer holding exactly these bytes (postMessage transfers ArrayBuffers efficiently). */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const out = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(out).set(bytes);
  return out;
}

export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : root + '/');
}

/** The message of an error, for display. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
