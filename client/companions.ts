// The files that go with a source in the editor (core/compile/companions.ts): the animation
// files beside an .md5mesh or a mesh SMD, for the compile command and the preview.
import * as vscode from 'vscode';
import { companionAnimations, companionExtension } from '../core/compile/companions';

/** The text of a file: the open document's, else the file's. */
export async function textOf(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
}

/** The animation files beside an .md5mesh or a mesh SMD that go with it (core/compile/companions.ts); none when the folder cannot be read. */
export async function siblingAnimations(source: vscode.Uri): Promise<vscode.Uri[]> {
  const extension = companionExtension(source.path);
  if (extension !== '.md5anim' && extension !== '.smd') return [];
  const folder = source.with({ path: source.path.slice(0, source.path.lastIndexOf('/')) });
  try {
    const entries = await vscode.workspace.fs.readDirectory(folder);
    const names = entries.filter(([n, type]) => type & vscode.FileType.File && n.toLowerCase().endsWith(extension)).map(([n]) => n).slice(0, MAX_SIBLINGS);
    const candidates = await Promise.all(names.map(async (n) => ({ name: `${folder.path}/${n}`, text: await textOf(source.with({ path: `${folder.path}/${n}` })) })));
    const chosen = companionAnimations({ name: source.path, text: await textOf(source) }, candidates);
    return chosen.map((path) => source.with({ path }));
  } catch {
    return [];
  }
}

/** At most this many files of the folder are looked at for sibling animations. */
const MAX_SIBLINGS = 200;

