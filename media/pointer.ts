// The pointer's gestures on the view's canvas: a drag orbits the camera (pans with another button
// or with shift or ctrl held), the wheel zooms, and a press that moves less than 4 px is a click.
// What a click or hovering means (picking) and what follows a camera move are the coordinator's.

import type { OrbitCamera } from './renderer/camera';

export interface PointerActions {
  /** The user moved the camera (a drag or the wheel). */
  cameraMoved(): void;
  /** A click at canvas CSS pixels (x, y). */
  click(x: number, y: number): void;
  /** The pointer is over (x, y) with no button down. */
  hover(x: number, y: number): void;
  /** A press ended (a click or the end of a drag). */
  released(): void;
}

export function bindPointer(canvas: HTMLCanvasElement, camera: OrbitCamera, actions: PointerActions): void {
  let dragging = false;
  let button = 0;
  let lastX = 0, lastY = 0, downX = 0, downY = 0;
  canvas.addEventListener('pointerdown', (e) => {
    dragging = true;
    button = e.button === 0 && (e.shiftKey || e.ctrlKey) ? 1 : e.button;
    lastX = downX = e.clientX;
    lastY = downY = e.clientY;
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (dragging) {
      const dx = e.clientX - lastX, dy = e.clientY - lastY;
      lastX = e.clientX;
      lastY = e.clientY;
      if (button === 0) camera.orbit(dx, dy);
      else camera.pan(dx, dy, canvas.clientHeight);
      actions.cameraMoved();
    } else actions.hover(e.offsetX, e.offsetY);
  });
  canvas.addEventListener('pointerup', (e) => {
    dragging = false;
    canvas.releasePointerCapture(e.pointerId);
    if (Math.abs(e.clientX - downX) + Math.abs(e.clientY - downY) < 4) actions.click(e.offsetX, e.offsetY);
    actions.released();
  });
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      camera.zoom(Math.exp(e.deltaY * 0.001));
      actions.cameraMoved();
    },
    { passive: false },
  );
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
}
