// The client's side of the browser server's file requests, answered from disk: iqmTools/readFile
// (text, base64 bytes, or with maxBytes 0 the stamp only) and iqmTools/listFolder.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReadFileParams, ReadFileResult } from '../../../core/lspMethods';

export async function readFileFromDisk(params: ReadFileParams): Promise<ReadFileResult> {
  const path = fileURLToPath(params.uri);
  const info = statSync(path);
  if (!info.isFile()) throw new Error('not a regular file');
  const stamp = `${info.size}:${info.mtimeMs}`;
  if (stamp === params.unlessStamp || info.size > params.maxBytes) return { stamp, size: info.size };
  const bytes = readFileSync(path);
  return params.encoding === 'base64' ? { stamp, size: info.size, base64: bytes.toString('base64') } : { stamp, size: info.size, text: bytes.toString('utf8') };
}

export async function listFolderFromDisk(uri: string): Promise<string[] | null> {
  try {
    return readdirSync(fileURLToPath(uri));
  } catch {
    return null;
  }
}
