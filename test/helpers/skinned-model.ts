// A seeded synthetic skinned model for the compiler's tests (bounds, fuzz).
import { prng } from './iqe-fixtures';

/**
 * A stack of rings bound to a chain of joints (rigid, blended, far and unweighted vertices), and an
 * animation; the same text for the same seed and options.
 */
export function skinnedModel(seed: number, options: { frames: number; speed: number; flat?: boolean }): string {
  const random = prng(seed);
  const joints = 12;
  let s = '# Inter-Quake Export\n';
  for (let j = 0; j < joints; j++) {
    s += `joint j${j} ${j === 0 ? -1 : Math.max(0, j - 1 - Math.floor(random() * 3))}\n`;
    s += `pq ${(random() - 0.5).toFixed(4)} ${(random() - 0.5).toFixed(4)} ${options.flat ? 0 : (random() * 0.5).toFixed(4)} 0 0 0 -1\n`;
  }
  s += 'mesh m\n';
  const rings = 10, around = 16;
  for (let r = 0; r < rings; r++) {
    for (let a = 0; a < around; a++) {
      const angle = (2 * Math.PI * a) / around;
      const z = options.flat ? 0 : r * 0.3;
      s += `vp ${Math.cos(angle).toFixed(5)} ${Math.sin(angle).toFixed(5)} ${z}\n`;
      const j0 = Math.min(joints - 1, Math.floor((r / rings) * joints));
      const kind = (a + r) % 5;
      if (kind === 0) s += `vb ${j0} 1\n`;
      else if (kind === 4 && r % 3 === 0) s += 'vb\n';
      else {
        s += `vb ${j0} ${(0.5 + random() * 0.4).toFixed(4)} ${Math.min(joints - 1, j0 + 1)} ${(random() * 0.4).toFixed(4)}`;
        if (kind >= 2) s += ` ${Math.floor(random() * joints)} 0.1`;
        if (kind >= 3) s += ` ${Math.floor(random() * joints)} 0.05`;
        s += '\n';
      }
    }
  }
  for (let r = 0; r + 1 < rings; r++) {
    for (let a = 0; a < around; a++) {
      const i0 = r * around + a, i1 = r * around + ((a + 1) % around);
      s += `fa ${i0} ${i0 + around} ${i1}\nfa ${i1} ${i0 + around} ${i1 + around}\n`;
    }
  }
  s += 'animation a\n';
  for (let f = 0; f < options.frames; f++) {
    s += 'frame\n';
    for (let j = 0; j < joints; j++) {
      const angle = options.speed * Math.sin(f * 0.2 + j) * (j % 3 === 0 ? 0 : 1);
      const axis = [Math.sin(j), Math.cos(j * 1.7), 0.3];
      const len = Math.hypot(axis[0], axis[1], axis[2]);
      const sh = Math.sin(angle / 2) / len;
      const q = [axis[0] * sh, axis[1] * sh, axis[2] * sh, -Math.cos(angle / 2)];
      const t = options.flat ? [0, 0, 0] : [0.01 * Math.sin(f + j), 0, 0.1 * j];
      s += `pq ${t.map((v) => v.toFixed(5)).join(' ')} ${q.map((v) => v.toFixed(6)).join(' ')}\n`;
    }
  }
  return s;
}
