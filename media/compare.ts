// One side of a comparison of two previews (the host pairs them and works out the differences):
// from the pairing on the view is shared. This side's camera moves, clip changes and play or pause
// go to the host for the other side (a few a second while dragging, not every frame), and the other
// side's are applied here without being sent back. The drawn camera is put on the root
// (data-camera), where the tests of a synced comparison compare the two sides.

import type { WebviewToHost } from '../core/protocol';
import { matchingClip, type ComparisonMessage, type SharedView } from '../core/viewLink';
import type { ViewState } from '../core/viewState';
import type { CameraState, OrbitCamera } from './renderer/camera';
import type { ViewClip } from './scene';
import type { WorkPanel } from './ui/workPanel';

/** What a side of a comparison reads of its view and asks of it. */
export interface CompareHost {
  readonly root: HTMLElement;
  readonly camera: OrbitCamera;
  readonly state: ViewState;
  readonly work: WorkPanel;
  /** A model is shown (before one is, there is no view to share or take). */
  shown(): boolean;
  clips(): ViewClip[];
  /** Puts the camera where the other side's is (no longer framed by a preset). */
  restoreCamera(camera: CameraState): void;
  selectClip(clip: number): void;
  setPlaying(playing: boolean): void;
  changed(): void;
  post(message: WebviewToHost): void;
}

export class Comparison {
  /** This preview is one side of a comparison. */
  active = false;
  /** Applying the other side's view: what changes now is not sent back. */
  private applying = false;
  private shareTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly host: CompareHost) {}

  /**
   * This preview is one side of a comparison: the differences, and from now on the view is shared.
   * Both sides get this message (at pairing, and again whenever a side reloads) with the view the
   * pair last shared, which both take: a side that reloaded restores its own saved camera, and a
   * view sent while it was loading would be lost. Before any view was shared only the left one
   * sends its own, or the two would cross on their way and each side take the other's.
   */
  start(m: ComparisonMessage): void {
    this.active = true;
    this.host.root.dataset.compare = m.side;
    this.host.work.showComparison(m);
    if (m.view) this.apply(m.view);
    else if (m.side === 'left') this.share();
  }

  end(): void {
    this.active = false;
    delete this.host.root.dataset.compare;
    this.host.work.endComparison();
  }

  /** The other side moved its camera or changed its clip or playback: this one follows. */
  apply(view: SharedView): void {
    const host = this.host;
    if (!host.shown()) return;
    this.applying = true;
    try {
      if (view.camera) host.restoreCamera(view.camera);
      const clips = host.clips();
      if (clips.length > 0) {
        const clip = matchingClip(view, clips.map((c) => c.name));
        if (clip !== host.state.clip) host.selectClip(clip);
        host.state.time = view.time;
        if (host.state.playing !== view.playing) host.setPlaying(view.playing);
      }
      this.showCamera();
      host.changed();
    } finally {
      this.applying = false;
    }
  }

  /** The camera on the root (yaw, pitch, distance), for the tests of a synced comparison. */
  showCamera(): void {
    const c = this.host.camera;
    this.host.root.dataset.camera = `${c.yaw.toFixed(3)},${c.pitch.toFixed(3)},${c.distance.toFixed(3)}`;
  }

  /** In a comparison, the view goes to the other side (coalesced: a drag sends a few a second, not one a frame). */
  share(): void {
    const host = this.host;
    if (!this.active || this.applying || !host.shown()) return;
    if (this.shareTimer) return;
    this.shareTimer = setTimeout(() => {
      this.shareTimer = null;
      const s = host.state;
      const clip = host.clips()[s.clip];
      this.showCamera();
      host.post({ type: 'viewChanged', view: { camera: host.camera.state(), clip: s.clip, clipName: clip?.name ?? '', time: s.time, playing: s.playing } });
    }, 30);
  }
}
