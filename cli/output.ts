// Where a command writes when `-o` names a folder: an existing folder, or any path ending in a
// separator, means FOLDER/<the default output's file name> (as a folder in the editor's
// outputPath does). Whether the output's name says what is written into it: core/formats/outputName.ts.
import { statSync } from 'node:fs';
import { basename, join, sep } from 'node:path';

export function outputInFolder(output: string, defaultOutput: string): string {
  let folder = output.endsWith('/') || output.endsWith(sep);
  if (!folder) {
    try {
      folder = statSync(output).isDirectory();
    } catch {
      /* no such file yet: the output itself */
    }
  }
  return folder ? join(output, basename(defaultOutput)) : output;
}
