// The engines' findings on a previewed model, for any host (the VS Code panel: client/preview/engines.ts; the
// `iqm-tools view` server): pure checks from core/engines over the model and, for a Quake 3 player
// part, over its player set read through the host's file access. No vscode here.

import { checkEngine } from '../engines/check';
import { factsFromModel } from '../engines/facts';
import { parseEngineList } from '../engines/index';
import { checkPlayer } from '../engines/player';
import { playerPart, readPlayerInput } from '../lookup/player';
import { engineReport } from '../engines/report';
import type { EngineFinding } from '../engines/types';
import type { FileAccess } from '../files';
import type { Model } from '../model/model';
import { readModel } from '../formats/models';
import type { EngineReport } from '../protocol';
import { fileNameOf as basename, folderOf as dirname } from '../paths';

/** The model in `bytes`, or undefined where it cannot be read (the preview reports format errors itself). */
export function tryReadModel(bytes: Uint8Array): Model | undefined {
  try {
    return readModel(bytes);
  } catch {
    return undefined; // the preview reports format errors itself
  }
}

export interface EngineResult {
  report: EngineReport;
  findings: EngineFinding[];
}

/**
 * Findings of the engines named in `setting` (ids separated by commas) for the model at `path`;
 * undefined when none is named. `fs` reads a Quake 3 player's set beside it.
 */
export async function engineFindingsOf(setting: string, path: string, bytes: Uint8Array, fs: FileAccess): Promise<EngineResult | undefined> {
  if (!setting.trim()) return undefined;
  const { engines, unknown } = parseEngineList(setting);
  const findings: EngineFinding[] = [];
  const model = tryReadModel(bytes);
  if (model) {
    const facts = factsFromModel(model, bytes);
    for (const e of engines) findings.push(...checkEngine(facts, e));
    if (model.format === 'md3' && playerPart(basename(path)) && engines.some((e) => e.player)) {
      // The player set as the checks read it (core/lookup/player.ts): a folder with an animation.cfg.
      const input = await readPlayerInput(fs, dirname(path));
      if (input?.animationCfg !== undefined) for (const e of engines) findings.push(...checkPlayer(input, e));
    }
  }
  const report = engineReport(findings, engines, unknown);
  return { report, findings };
}

