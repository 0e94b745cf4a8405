// The compile worker kept between compiles (client/compile/warmWorker.ts): one at most, handed out
// once, forgotten when it ends on its own, ended when idle or disposed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WarmWorker } from '../../client/compile/warmWorker';

interface Fake {
  id: number;
  ended: boolean;
}

function keeper(idleMs = 60_000): { warm: WarmWorker<Fake>; make: (id: number) => Fake } {
  const warm = new WarmWorker<Fake>((worker) => {
    assert.equal(worker.ended, false, `worker ${worker.id} ended twice`);
    worker.ended = true;
  }, idleMs);
  return { warm, make: (id) => ({ id, ended: false }) };
}

test('a kept worker is handed out once; none is kept at first', () => {
  const { warm, make } = keeper();
  assert.equal(warm.take(), undefined);
  const a = make(1);
  warm.keep(a);
  assert.equal(warm.take(), a);
  assert.equal(warm.take(), undefined, 'handed out once');
  assert.equal(a.ended, false);
});

test('one worker at most: keeping a second ends the first', () => {
  const { warm, make } = keeper();
  const a = make(1);
  const b = make(2);
  warm.keep(a);
  warm.keep(b);
  assert.equal(a.ended, true);
  assert.equal(b.ended, false);
  assert.equal(warm.take(), b);
  // Keeping the kept one again does not end it.
  warm.keep(b);
  warm.keep(b);
  assert.equal(b.ended, false);
  warm.dispose();
  assert.equal(b.ended, true);
});

test('a worker that ended on its own is forgotten; another one is not', () => {
  const { warm, make } = keeper();
  const a = make(1);
  warm.keep(a);
  warm.forget(make(2));
  assert.equal(warm.take(), a, 'forgetting another worker keeps this one');
  warm.keep(a);
  warm.forget(a);
  assert.equal(warm.take(), undefined);
  assert.equal(a.ended, false, 'forgotten, not ended: it ended itself');
});

test('a kept worker is ended once it has waited idleMs without a compile, not before', async () => {
  const { warm, make } = keeper(40);
  const a = make(1);
  warm.keep(a);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(a.ended, false);
  // Taken and kept again: the wait starts over.
  assert.equal(warm.take(), a);
  warm.keep(a);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(a.ended, true);
  assert.equal(warm.take(), undefined);
});
