// The models of issue 35's preview goal, shared by the preview benchmarks (preview-first-frame in
// VS Code, cli-view-first-frame in `iqm-tools view`): the largest IQM/MD3/DPM of ../shared/assets, a
// generated 100 MB IQM, and the goal's baseline, node's own read and parse of a file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readModel } from '../../core/formats/models';
import { assetsDir, median } from './data';

/** The generated 100 MB IQM: bigIqm(side) written as `file` (1,254,400 skinned vertices, 100 frames). */
export const GENERATED_100MB = { label: 'iqm-100mb', file: 'grid-100mb.iqm', side: 1120 };

/** The largest IQM, MD3 or DPM of ../shared/assets, relative to it ("the largest shared model"), or null without assets. */
export function largestModel(): string | null {
  let best: { rel: string; size: number } | null = null;
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path, `${rel}${name}/`);
      else if (/\.(iqm|md3|dpm)$/i.test(name) && (!best || statSync(path).size > best.size)) best = { rel: `${rel}${name}`, size: statSync(path).size };
    }
  };
  if (existsSync(assetsDir)) walk(assetsDir, '');
  return best === null ? null : (best as { rel: string }).rel;
}

/** Milliseconds node takes to read `path` and parse it with the core reader (the webview's), median of 3: the baseline of the 2x goal. */
export function readAndParseMs(path: string): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    readModel(new Uint8Array(readFileSync(path)));
    times.push(performance.now() - t0);
  }
  return median(times);
}
