// The preview's file access on the extension host: vscode.workspace.fs for local, remote and
// virtual files alike, as core's FileAccess for the model's file system (the engine lookup), and the companion
// files compiled with a source.

import * as vscode from 'vscode';
import { companionExtension, mtlLibraries } from '../../core/compile/companions';
import { siblingAnimations } from '../companions';
import { gltfResources } from '../compile/source';
import { dirname, type LookupFs } from './resolve';

/** core's file access (core/files.ts) over vscode.workspace.fs for the model's file system (same scheme and authority); open documents by their editor text. */
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
    async readBytes(path) {
      try {
        return await vscode.workspace.fs.readFile(uriOf(path));
      } catch {
        return null;
      }
    },
    // An open document's text, saved or not: the preview follows a sidecar file as it is edited.
    editorText(path) {
      const uri = uriOf(path).toString();
      return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.getText();
    },
  };
}

export interface CompanionFiles {
  animations: { name: string; bytes: Uint8Array }[];
  resources: { uri: string; bytes: Uint8Array }[];
  /** Every companion file looked for, read or not: a change to one (or its creation) changes the compile. */
  lookedFor: vscode.Uri[];
}

/**
 * The files compiled with a source: the animation files beside an .md5mesh or a mesh SMD (merged
 * after it: its clips), the .mtl files an OBJ names and the .bin and images a glTF names (as
 * resources, by the name the source gives). Unreadable ones are left out: the compile says what
 * it misses (a .mtl: materials keep their names).
 */
export async function companionFiles(uri: vscode.Uri, bytes: Uint8Array): Promise<CompanionFiles> {
  const animations: { name: string; bytes: Uint8Array }[] = [];
  const resources: { uri: string; bytes: Uint8Array }[] = [];
  const lookedFor: vscode.Uri[] = [];
  if (/\.(gltf|glb)$/i.test(uri.path)) return { animations, resources: (await gltfResources(uri, bytes, lookedFor)) ?? [], lookedFor };
  const extension = companionExtension(uri.path);
  if (!extension) return { animations, resources, lookedFor };
  const folder = dirname(uri.path);
  if (extension === '.mtl') {
    for (const name of mtlLibraries(new TextDecoder('utf-8').decode(bytes))) {
      const file = uri.with({ path: `${folder}/${name.replace(/\\/g, '/')}` });
      lookedFor.push(file);
      try {
        resources.push({ uri: name, bytes: await vscode.workspace.fs.readFile(file) });
      } catch {
        // Left out (see above).
      }
    }
    return { animations, resources, lookedFor };
  }
  for (const u of await siblingAnimations(uri)) {
    lookedFor.push(u);
    try {
      animations.push({ name: u.path.slice(folder.length + 1), bytes: await vscode.workspace.fs.readFile(u) });
    } catch {
      // Left out (see above).
    }
  }
  return { animations, resources, lookedFor };
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
