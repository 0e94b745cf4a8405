// A Quake 3 player assembled in the view (player.ts chains the parts through their tags and picks
// each part's clip): whether the opened file can be (head, upper or lower.md3 with the other two
// beside it), the other two parts read from the bytes the host posted, each with the skin the
// engines would choose from the .skin files beside it, their GPU models and texture requests, and
// freeing them when the player is taken apart or the model goes. The opened part's GPU model and
// textures stay the coordinator's.

import type { Model } from '../core/model/model';
import type { LoadMessage, TextureRequest } from '../core/protocol';
import { chooseSkin, type SkinChoice } from '../core/lookup/meshTextures';
import { playerPart } from '../core/lookup/player';
import { loadModelBytes } from './load';
import { PlayerAssembly } from './player';
import { identity4 } from './renderer/camera';
import { ModelGpu, type Renderer } from './renderer/renderer';
import type { Scene } from './scene';
import { textureRequests, type Textures } from './textures';

/** The opened model can be assembled: an MD3 named head, upper or lower.md3 with the other two parts posted. */
export function canAssemble(model: Model, msg: LoadMessage | null): boolean {
  return model.format === 'md3' && !!msg && playerPart(msg.fileName) !== null && msg.playerParts.length === 2;
}

export class Assembly {
  /** The assembled player, or null when the opened model is drawn alone. */
  player: PlayerAssembly | null = null;
  /** The skin of each part other than the opened one. */
  private readonly skins = new Map<string, SkinChoice | null>();

  /**
   * Assembles the player around the opened part (`scene`, opened as msg.fileName; canAssemble
   * said it can be). Throws when another part cannot be read or the set does not assemble.
   */
  assemble(msg: LoadMessage, scene: Scene): PlayerAssembly {
    const part = playerPart(msg.fileName);
    if (!part) throw new Error(`${msg.fileName} is not head, upper or lower.md3`);
    const others = msg.playerParts.map((p) => ({ part: p.part, fileName: p.name, model: loadModelBytes(new Uint8Array(p.bytes), p.name).model, skins: p.skins }));
    const player = new PlayerAssembly({ part, fileName: msg.fileName, scene }, others, msg.sidecars.animationCfg?.text ?? null);
    this.skins.clear();
    for (const o of others) this.skins.set(o.part, chooseSkin(o.model, o.skins));
    this.player = player;
    return player;
  }

  /** GPU models of the parts other than the opened one (`scene`, drawn with `gpu`), with the textures known for them. */
  buildGpus(renderer: Renderer, scene: Scene, gpu: ModelGpu | null, textures: Textures): void {
    const player = this.player;
    if (!player) return;
    for (const p of player.parts) {
      if (p.scene === scene) {
        p.gpu = gpu;
        continue;
      }
      p.gpu?.dispose();
      p.gpu = new ModelGpu(renderer.gl, p.scene.layout, p.scene.joints, p.scene.model.winding);
      textures.uploadPart(renderer, p.part, p.gpu, p.scene.model.meshes.length);
    }
  }

  /** The GPU model of a part (its textures are set on it when they arrive), or null. */
  partGpu(part: string): ModelGpu | null {
    return this.player?.parts.find((x) => x.part === part)?.gpu ?? null;
  }

  /** What the host is asked for the textures of the parts other than the opened one (keys `part:mesh`). */
  textureRequests(scene: Scene): TextureRequest[] {
    const requests: TextureRequest[] = [];
    if (!this.player) return requests;
    for (const p of this.player.parts) {
      if (p.scene === scene) continue;
      requests.push(...textureRequests(p.scene.model, this.skins.get(p.part) ?? null, `${p.part}:`));
    }
    return requests;
  }

  /** Takes the player apart: the other parts' GPU models are freed, and the opened part (`gpu`) is drawn where the file puts it. Returns the player that was, or null. */
  disassemble(gpu: ModelGpu | null): PlayerAssembly | null {
    const player = this.dispose(gpu);
    if (gpu) identity4(gpu.modelMatrix);
    return player;
  }

  /** Frees the GPU models of the parts other than the opened one (drawn with `gpu`); the player is gone. Returns it, or null. */
  dispose(gpu: ModelGpu | null): PlayerAssembly | null {
    const player = this.player;
    if (player) for (const p of player.parts) if (p.gpu !== gpu) p.gpu?.dispose();
    this.player = null;
    return player;
  }
}
