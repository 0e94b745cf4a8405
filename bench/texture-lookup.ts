// The preview's texture answers (core/host/textureAnswers.ts) for every binary model in
// ../shared/assets, over a file system whose every call takes a round trip: workspace.fs in
// code-server or a remote host, where the texture lookup was the largest phase of the first
// textured frame (docs/PERFORMANCE.md). Side by side: the same lookup with the file system's calls
// one at a time (each waits for the last: how the lookup asked before it asked at once), and at
// once. Figures: wall milliseconds and calls per model, at 2 and 10 ms a call.
import { readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type { FileAccess } from '../core/files';
import { openModel } from '../core/formats/open';
import { answerTextureRequests } from '../core/host/textureAnswers';
import { chooseSkin, textureNames } from '../core/lookup/meshTextures';
import { findSidecars } from '../core/lookup/sidecars';
import type { TextureRequest } from '../core/protocol';
import { nodeFileAccess } from '../node/files';

const assets = resolve(process.cwd(), '..', 'shared', 'assets');

function modelsUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...modelsUnder(p));
    else if (/\.(iqm|md3|dpm)$/i.test(name)) out.push(p);
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** node's file access with `latency` ms before each answer; `oneAtATime`: a call waits for the one before. */
function slowAccess(latency: number, oneAtATime: boolean): { access: FileAccess; calls: () => number } {
  let calls = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const slow = <T>(f: () => Promise<T>): Promise<T> => {
    calls++;
    const run = async () => {
      await sleep(latency);
      return f();
    };
    if (!oneAtATime) return run();
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  const access: FileAccess = {
    readBytes: (p) => slow(() => nodeFileAccess.readBytes(p)),
    isFile: (p) => slow(() => nodeFileAccess.isFile(p)),
    listFolder: (p) => slow(() => nodeFileAccess.listFolder(p)),
  };
  return { access, calls: () => calls };
}

async function requestsOf(path: string): Promise<TextureRequest[] | null> {
  const opened = await openModel(path, nodeFileAccess);
  if (opened.kind !== 'model') return null;
  const sidecars = await findSidecars(nodeFileAccess, path, opened.format === 'md3');
  const skin = chooseSkin(opened.model, sidecars.skins);
  return opened.model.meshes.map((_, i) => ({ key: String(i), names: textureNames(opened.model, i, skin?.skin ?? null), skin: skin ? skin.name : null }));
}

async function main(): Promise<void> {
  let models: string[];
  try {
    models = modelsUnder(assets);
  } catch {
    console.log(`texture-lookup: skipped (${assets} is absent)`);
    return;
  }
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('model | requests | found | latency | one at a time: ms (calls) | at once: ms (calls) | ratio');
  const ratios: { name: string; latency: number; ratio: number }[] = [];
  for (const path of models) {
    const requests = await requestsOf(path);
    if (!requests || requests.length === 0) continue;
    const name = path.slice(assets.length + 1);
    for (const latency of [2, 10]) {
      const figures: { ms: number; calls: number; found: number }[] = [];
      for (const oneAtATime of [true, false]) {
        const { access, calls } = slowAccess(latency, oneAtATime);
        const t0 = performance.now();
        const results = await answerTextureRequests({ path, fs: access, engines: '', display: (p) => p, imageUri: (p) => `file://${p}` }, requests);
        figures.push({ ms: performance.now() - t0, calls: calls(), found: results.filter((r) => r.source.kind !== 'none').length });
      }
      const [serial, parallel] = figures;
      if (serial.found !== parallel.found) throw new Error(`${name}: ${serial.found} textures found one at a time, ${parallel.found} at once`);
      const ratio = parallel.ms / serial.ms;
      // A model whose meshes name no texture asks nothing: no ratio to quote.
      if (serial.calls > 0) ratios.push({ name, latency, ratio });
      console.log(`${name} | ${requests.length} | ${parallel.found} | ${latency} ms | ${serial.ms.toFixed(0)} (${serial.calls}) | ${parallel.ms.toFixed(0)} (${parallel.calls}) | ${ratio.toFixed(2)}x`);
    }
  }
  ratios.sort((a, b) => a.ratio - b.ratio);
  const best = ratios[0];
  const worst = ratios[ratios.length - 1];
  if (best) console.log(`at once / one at a time: best ${best.ratio.toFixed(2)}x (${best.name}, ${best.latency} ms), worst ${worst.ratio.toFixed(2)}x (${worst.name}, ${worst.latency} ms)`);
}

void main();
