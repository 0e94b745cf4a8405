// The preview's first-load timeline (core/previewTimeline.ts): each event keeps its first stamp
// (a reload does not move the first load's), and the events the benchmark reads are named once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TIMELINE_EVENTS, PreviewTimeline } from '../../core/previewTimeline';

test('a timeline keeps the first stamp of each event and says whether a mark stamped', () => {
  const t = new PreviewTimeline();
  assert.equal(t.has('firstFrame'), false);
  assert.equal(t.mark('firstFrame', 1000), true);
  assert.equal(t.mark('firstFrame', 2000), false);
  assert.deepEqual(t.stamps, { firstFrame: 1000 });
  const before = Date.now();
  assert.equal(t.mark('loadReceived'), true);
  const stamped = (t.stamps as Record<string, number>).loadReceived;
  assert.ok(stamped >= before && stamped <= Date.now(), 'stamped now, on the epoch clock');
});

test('every timeline event is named once, stamped by the host, the webview or the caller', () => {
  const names = TIMELINE_EVENTS.map(([name]) => name);
  assert.equal(new Set(names).size, names.length);
  for (const [, where] of TIMELINE_EVENTS) assert.ok(['host', 'webview', 'test'].includes(where));
});
