// How an engine finding reads in the editor (core/engines/report.ts findingSentence): the fact opens
// a sentence, so its first letter is capitalised, but a file or code name keeps its spelling
// ("qfiles.h declares ...", not "Qfiles.h declares ...").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES } from '../../core/engines/index';
import { findingSentence } from '../../core/engines/report';
import type { EngineFinding, Fact } from '../../core/engines/types';

/** Every fact of every engine profile. */
function facts(): Fact[] {
  const found: Fact[] = [];
  const walk = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    const v = value as Partial<Fact>;
    if (typeof v.text === 'string' && v.source) found.push(v as Fact);
    else for (const child of Object.values(value)) walk(child);
  };
  walk(ENGINES);
  return found;
}

const sentence = (fact: Fact): string => {
  const finding: EngineFinding = { code: 'x', severity: 'information', message: 'm', engine: 'e', engineName: 'E', fact, location: { what: 'header' } };
  return findingSentence(finding, false);
};

test('the ioquake3 MD3 limits note names qfiles.h as the file is spelled', () => {
  const note = facts().find((f) => f.text.includes('MD3_MAX_FRAMES') && f.source.path.endsWith('qfiles.h') && f.text.startsWith('qfiles.h'));
  assert.ok(note, 'the ioquake3 profile no longer has its qfiles.h note');
  const text = sentence(note);
  assert.ok(text.includes('. qfiles.h declares the MD3 limits'), text);
  assert.ok(!text.includes('Qfiles.h'), text);
});

test('a fact opening with a file or code name keeps it; one opening with a word is capitalised', () => {
  const all = facts();
  assert.ok(all.length > 50, `only ${all.length} facts found`);
  let names = 0;
  for (const fact of all) {
    const first = fact.text.split(' ')[0];
    const text = sentence(fact);
    if (/[._]\w/.test(first)) {
      names++;
      assert.ok(text.includes(`. ${fact.text} (`), text);
    } else {
      assert.ok(text.includes(`. ${fact.text.charAt(0).toUpperCase()}${fact.text.slice(1)} (`), text);
    }
  }
  // qfiles.h, animation.cfg, lower.md3, upper.md3, model_alias.c, num_poses, ...
  assert.ok(names >= 5, `only ${names} facts open with a file or code name`);
});
