// Khronos' glTF-Validator (npm gltf-validator, offline) as the tests call it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The validator is a compiled Dart program without types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const validator = require('gltf-validator') as { validateBytes(bytes: Uint8Array, options: object): Promise<{ issues: { numErrors: number; numWarnings: number; messages: { code: string; message: string; pointer?: string; severity: number }[] } }> };

/** Errors and warnings of Khronos' validator, one line each (infos, e.g. tangents without a normal map, are not counted); `folder`: where a .gltf's files are. */
export async function validateGltf(bytes: Uint8Array, folder?: string): Promise<string[]> {
  const external = folder === undefined ? {} : { uri: 'x.gltf', externalResourceFunction: (uri: string) => Promise.resolve(new Uint8Array(readFileSync(join(folder, decodeURIComponent(uri))))) };
  const report = await validator.validateBytes(bytes, { maxIssues: 50, ...external });
  return report.issues.messages.filter((m) => m.severity <= 1).map((m) => `${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
}
