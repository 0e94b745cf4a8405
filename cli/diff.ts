// `iqm-tools diff A B [--json] [--tolerance T]`: the semantic differences between two models
// (core/compare/diff.ts); exit 1 when there are any, 0 when none, 2 on bad input. Any format
// `info` reads works, IQE included (compiled in memory), so `diff model.iqe reference.iqm` works.
// Each model is compared with the clips its preview plays (the sidecars beside it decide them, as
// in Compare with…): a DPM and the IQE converted from it compare clip by clip.
import { resolve } from 'node:path';
import { diffModels } from '../core/compare/diff';
import { clipsBeside, withClips } from '../core/lookup/clips';
import type { Model } from '../core/model/model';
import { nodeFileAccess } from '../node/files';
import { loadModel } from './info';

const USAGE = 'usage: iqm-tools diff A B [--json] [--tolerance T]';

export async function runDiff(args: string[]): Promise<number> {
  const files: string[] = [];
  let json = false;
  let tolerance: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--json') json = true;
    else if (arg === '--tolerance') {
      const value = Number(args[++i]);
      if (!(value > 0)) {
        process.stderr.write(`iqm-tools diff: --tolerance needs a positive number\n${USAGE}\n`);
        return 2;
      }
      tolerance = value;
    } else if (arg.startsWith('-')) {
      process.stderr.write(`iqm-tools diff: unknown option '${arg}'\n${USAGE}\n`);
      return 2;
    } else files.push(arg);
  }
  if (files.length !== 2) {
    process.stderr.write(`iqm-tools diff: needs two files\n${USAGE}\n`);
    return 2;
  }
  const [a, b] = await Promise.all(files.map((file) => loadModel(file)));
  for (const loaded of [a, b]) {
    if (!loaded.ok) {
      process.stderr.write(loaded.message + '\n');
      return 2;
    }
  }
  if (!a.ok || !b.ok) return 2;
  const played = async (file: string, model: Model) => withClips(model, await clipsBeside(nodeFileAccess, resolve(file), model));
  const differences = diffModels(await played(files[0], a.model), await played(files[1], b.model), tolerance === undefined ? {} : { tolerance });
  if (json) process.stdout.write(JSON.stringify({ equal: differences.length === 0, differences }) + '\n');
  else if (differences.length === 0) process.stdout.write(`${files[0]} and ${files[1]}: no semantic differences\n`);
  else process.stdout.write(differences.map((d) => `${d.section}: ${d.message}`).join('\n') + '\n');
  return differences.length === 0 ? 0 : 1;
}
