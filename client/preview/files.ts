// The preview's file access on the extension host: vscode.workspace.fs for local, remote and
// virtual files alike, as a LookupFs (resolve.ts) for the model's file system, and the companion
// files compiled with a source.

import * as vscode from 'vscode';
import { companionExtension, mtlLibraries } from '../../core/compile/companions';
import { siblingAnimations } from '../companions';
import { dirname, type LookupFs } from './resolve';

/** LookupFs over vscode.workspace.fs for the model's file system (same scheme and authority). */
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
    async readText(path) {
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

/** The files compiled with a source: its sibling animation files, an OBJ's .mtl files (unreadable ones left out). */
export async function companionFiles(uri: vscode.Uri, bytes: Uint8Array): Promise<{ name: string; bytes: ArrayBuffer }[] | undefined> {
  const extension = companionExtension(uri.path);
  if (!extension) return undefined;
  const folder = dirname(uri.path);
  const paths =
    extension === '.mtl'
      ? mtlLibraries(new TextDecoder('utf-8').decode(bytes)).map((name) => `${folder}/${name.replace(/\\/g, '/')}`)
      : (await siblingAnimations(uri)).map((u) => u.path);
  const out: { name: string; bytes: ArrayBuffer }[] = [];
  for (const path of paths) {
    try {
      out.push({ name: path.slice(folder.length + 1), bytes: toArrayBuffer(await vscode.workspace.fs.readFile(uri.with({ path }))) });
    } catch {
      // Left out: the compile says what it misses (a .mtl: materials keep their names).
    }
  }
  return out;
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
