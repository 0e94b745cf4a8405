// The engine lookup's file access (core/files.ts) over node:fs, as the CLI has it (node/sidecarIo.ts):
// what the preview's lookups are tested through. For tests only.
import { diskFiles } from '../../node/sidecarIo';

export const nodeLookupFs = diskFiles;
