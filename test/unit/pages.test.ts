// core/pages.ts and core/growable.ts: large arrays on pages of their own (WebAssembly.Memory),
// growing in place; what they hold must be exactly what ordinary arrays would hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { float64s, Growable, NarrowDoubles } from '../../core/growable';
import { collectPages, newArray, PAGED_FROM, setCollector } from '../../core/pages';
import { compileHeap } from '../../node/heap';

const isPaged = (a: ArrayBufferView): boolean => a.buffer.byteLength !== a.byteLength && a.buffer.byteLength % 65536 === 0;

test('newArray: exact length, zeroed; on pages of its own from PAGED_FROM bytes, ordinary below', () => {
  const small = newArray(Float64Array, PAGED_FROM / 8 - 1);
  assert.equal(small.length, PAGED_FROM / 8 - 1);
  assert.equal(small.buffer.byteLength, small.byteLength, 'a small array is an ordinary one');
  const n = PAGED_FROM / 4 + 3;
  const large = newArray(Int32Array, n);
  assert.equal(large.length, n);
  assert.ok(isPaged(large), `buffer of ${large.buffer.byteLength} bytes for ${large.byteLength}`);
  assert.ok(large.every((v) => v === 0));
  large.fill(-1);
  assert.equal(large[n - 1], -1);
  const shared = newArray(Float64Array, PAGED_FROM / 8, true);
  assert.ok(shared.buffer instanceof SharedArrayBuffer);
  const sharedSmall = newArray(Uint8Array, 10, true);
  assert.ok(sharedSmall.buffer instanceof SharedArrayBuffer && sharedSmall.length === 10);
});

test('Growable: values survive the move to pages and every later growth, unshared and shared', () => {
  for (const shared of [false, true]) {
    const g = new Growable(Float64Array, 16, shared);
    const count = 3 * (PAGED_FROM / 8) + 5;
    for (let i = 0; i < count; i++) g.push(i * 0.5 - 7);
    const view = g.view();
    assert.equal(view.length, count);
    assert.ok(isPaged(view), `shared=${shared}: on pages`);
    assert.equal(view.buffer instanceof SharedArrayBuffer, shared);
    for (let i = 0; i < count; i++) if (view[i] !== i * 0.5 - 7) assert.fail(`shared=${shared}: value ${i} is ${view[i]}`);
    // pushMany across a growth, then a copy of its own.
    const more = new Float64Array(PAGED_FROM / 8).map((_, i) => -i);
    g.pushMany(more, more.length);
    const copy = g.copy();
    assert.equal(copy.length, count + more.length);
    assert.equal(copy[count - 1], (count - 1) * 0.5 - 7);
    assert.equal(copy[count + more.length - 1], -(more.length - 1));
    assert.equal(copy.buffer.byteLength, copy.byteLength, 'copy() is an ordinary array');
  }
  // A small one never moves.
  const small = float64s(4);
  for (let i = 0; i < 100; i++) small.push(i);
  assert.equal(small.view().buffer.byteLength, small.data.length * 8);
});

test('collectPages calls the collector only after enough pages were mapped since the last time', () => {
  let calls = 0;
  setCollector(() => calls++);
  try {
    collectPages();
    const before = calls;
    // 32 MiB of pages: more than the threshold.
    const big = newArray(Uint8Array, 32 << 20);
    big[big.length - 1] = 1;
    collectPages();
    assert.equal(calls, before + 1);
    collectPages();
    assert.equal(calls, before + 1, 'nothing mapped since: no second collection');
  } finally {
    setCollector(null);
  }
});

test("the CLI's collector (node/heap.ts) gives dropped pages back to the system", () => {
  assert.equal(compileHeap(1 << 20), null, 'no collector for a small input');
  const collect = compileHeap(1 << 30);
  assert.ok(collect, 'node gives a gc function');
  setCollector(collect);
  try {
    const rss = (): number => process.memoryUsage().rss / 2 ** 20;
    collect();
    const before = rss();
    let arrays: Float64Array[] = [];
    for (let i = 0; i < 4; i++) arrays.push(newArray(Float64Array, 2 << 20).fill(i + 1));
    const held = rss();
    assert.ok(held - before > 56, `64 MiB written: RSS ${before.toFixed(0)} -> ${held.toFixed(0)} MiB`);
    arrays = [];
    collectPages();
    const after = rss();
    assert.ok(held - after > 56, `dropped and collected: RSS ${held.toFixed(0)} -> ${after.toFixed(0)} MiB`);
  } finally {
    setCollector(null);
  }
});

test('NarrowDoubles: 32 bits while every value is exact in 32, then 64 from the first that is not, the same numbers either way', () => {
  const exact = [0, -0, 1, -2.5, 0.75, 16777216, NaN, Infinity, -Infinity, 2 ** 100];
  const narrow = new NarrowDoubles(2);
  for (const v of exact) narrow.push(v);
  assert.ok(narrow.view() instanceof Float32Array, 'exact values stay in 32 bits');
  assert.deepEqual(Array.from(narrow.view()), exact);
  assert.ok(Object.is(narrow.view()[1], -0));
  // The first value a float32 cannot hold widens what is there, which reads back the same.
  const inexact = [0.1, 16777217, 1e-50, 2 ** 60 + 2 ** 8];
  for (const v of inexact) narrow.push(v);
  narrow.push(5);
  assert.ok(narrow.view() instanceof Float64Array, 'widened');
  assert.equal(narrow.length, exact.length + inexact.length + 1);
  const all = Array.from(narrow.view());
  for (const [i, v] of [...exact, ...inexact, 5].entries()) assert.ok(Object.is(all[i], v), `value ${i}: ${all[i]} against ${v}`);
});
