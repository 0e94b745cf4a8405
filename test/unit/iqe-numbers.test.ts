// scanReal / scanInteger against the C semantics of IQE-SEMANTICS.md §2.4: strtod and base-10
// strtol in the C locale read the longest numeric prefix and stop there (no whitespace skipping
// here: the callers skip it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanInteger, scanned, scanReal } from '../../core/iqe/numbers';
import { prng, randomInt } from '../helpers/iqe-fixtures';

/** [value, end] of scanReal on the whole string, or [undefined, -1] when nothing parses. */
function real(s: string, from = 0, end = s.length): [number | undefined, number] {
  scanned.value = 12345; // a sentinel: a failed scan must not matter
  const p = scanReal(s, from, end);
  return p < 0 ? [undefined, p] : [scanned.value, p];
}

function integer(s: string, from = 0, end = s.length): [number | undefined, number] {
  const p = scanInteger(s, from, end);
  return p < 0 ? [undefined, p] : [scanned.value, p];
}

function assertReal(s: string, value: number, end: number): void {
  const [v, p] = real(s);
  assert.equal(p, end, `end of '${s}'`);
  assert.ok(Object.is(v, value), `value of '${s}': ${v} (expected ${value})`);
}

test('scanReal: plain decimals', () => {
  assertReal('0', 0, 1);
  assertReal('1', 1, 1);
  assertReal('-2.25', -2.25, 5);
  assertReal('+3.5', 3.5, 4);
  assertReal('.5', 0.5, 2);
  assertReal('-.5', -0.5, 3);
  assertReal('5.', 5, 2);
  assertReal('007.50', 7.5, 6);
  assertReal('0.1', 0.1, 3);
  assertReal('123456789012345678901234567890', 1.2345678901234568e29, 30);
});

test('scanReal: the longest prefix, stopping before the rest', () => {
  assertReal('1.5abc', 1.5, 3);
  assertReal('1,5', 1, 1);
  assertReal('0/1', 0, 1);
  assertReal('2..3', 2, 2);
  assertReal('1-2', 1, 1);
  assertReal('4 5', 4, 1);
  // The end limit is respected.
  const [v, p] = real('1.25', 0, 2);
  assert.equal(p, 2);
  assert.equal(v, 1);
  // From an offset.
  const [w, q] = real('vp 7.5 1', 3, 8);
  assert.equal(q, 6);
  assert.equal(w, 7.5);
});

test('scanReal: negative zero', () => {
  assertReal('-0', -0, 2);
  assertReal('-0.0', -0, 4);
  assertReal('-0e5', -0, 4);
  assertReal('-.0', -0, 3);
  assertReal('0', 0, 1);
  assertReal('+0', 0, 2);
});

test('scanReal: exponents need a digit', () => {
  assertReal('1e5', 1e5, 3);
  assertReal('1E5', 1e5, 3);
  assertReal('1e+5', 1e5, 4);
  assertReal('1e-5', 1e-5, 4);
  assertReal('2.5e-3x', 2.5e-3, 6);
  assertReal('1e', 1, 1);
  assertReal('1e+', 1, 1);
  assertReal('1e-', 1, 1);
  assertReal('1ex', 1, 1);
  assertReal('1e+x', 1, 1);
  assertReal('.5e1', 5, 4);
  assertReal('1e400', Infinity, 5);
  assertReal('-1e400', -Infinity, 6);
  assertReal('1e-400', 0, 6);
  assertReal('1e0000000000000000000000000000002', 100, 33);
  assertReal('4.9e-324', 5e-324, 8);
  assertReal('1.7976931348623157e308', 1.7976931348623157e308, 22);
});

test('scanReal: nothing to read', () => {
  for (const s of ['', '-', '+', '.', '-.', '.e5', 'e5', 'x', ' 1', 'in', 'na', '--1', '+-1', '#']) {
    assert.deepEqual(real(s), [undefined, -1], `'${s}'`);
  }
});

test('scanReal: inf, infinity, nan, nan(chars), any case', () => {
  assertReal('inf', Infinity, 3);
  assertReal('INF', Infinity, 3);
  assertReal('-inf', -Infinity, 4);
  assertReal('+Inf', Infinity, 4);
  assertReal('infinity', Infinity, 8);
  assertReal('-Infinity', -Infinity, 9);
  assertReal('INFINITYx', Infinity, 8);
  assertReal('infinit', Infinity, 3);
  assertReal('infx', Infinity, 3);
  const nan = (s: string, end: number): void => {
    const [v, p] = real(s);
    assert.equal(p, end, `end of '${s}'`);
    assert.ok(Number.isNaN(v), `'${s}' is NaN`);
  };
  nan('nan', 3);
  nan('NaN', 3);
  nan('-nan', 4);
  nan('nan(123)', 8);
  nan('nan(abc_DEF9)', 13);
  nan('nan()', 5);
  nan('nan(', 3);
  nan('nan(12', 3);
  nan('nan(1-2)', 3);
  nan('nanx', 3);
});

test('scanReal: hex floats', () => {
  assertReal('0x1p3', 8, 5);
  assertReal('0x1.8p1', 3, 7);
  assertReal('0X1P-1', 0.5, 6);
  assertReal('0x10', 16, 4);
  assertReal('-0x10', -16, 5);
  assertReal('0xff', 255, 4);
  assertReal('0xA.8', 10.5, 5);
  assertReal('0x.8', 0.5, 4);
  assertReal('0x8.', 8, 4);
  assertReal('0x1p', 1, 3);
  assertReal('0x1p+', 1, 3);
  assertReal('0x1pz', 1, 3);
  assertReal('0x1p-1074', 5e-324, 9);
  assertReal('0x1p1024', Infinity, 8);
  assertReal('-0x0', -0, 4);
  // "0x" without hex digits: strtod reads the "0" and stops after it.
  assertReal('0x', 0, 1);
  assertReal('0xg', 0, 1);
  assertReal('0x.', 0, 1);
  assertReal('0x.p1', 0, 1);
  assertReal('-0x', -0, 2);
  // An exponent letter of decimal numbers is a hex digit here.
  assertReal('0x1e3', 0x1e3, 5);
});

test('scanReal: hex floats with more than 53 significant bits are rounded once', () => {
  // 0x200000000000018 = 2^57 + 24: the nearest double is 2^57 + 32 (spacing 32 there).
  assertReal('0x200000000000018', 2 ** 57 + 32, 17);
  // 0x1.00000000000008p0 = 1 + 2^-53, a tie: even gives 1; with one more set bit it rounds up.
  assertReal('0x1.00000000000008p0', 1, 20);
  assertReal('0x1.000000000000081p0', 1 + 2 ** -52, 21);
});

test('scanReal: decimals are correctly rounded (bit-equal to Number) on 20,000 random strings', () => {
  const random = prng(0x1e5eed);
  const bits = new Float64Array(2);
  const words = new Uint32Array(bits.buffer);
  for (let n = 0; n < 20000; n++) {
    let s = '';
    const sign = randomInt(random, 3);
    if (sign === 1) s += '-';
    else if (sign === 2) s += '+';
    const digits = 1 + randomInt(random, 20);
    const point = randomInt(random, digits + 2) - 1; // -1: no point
    for (let d = 0; d < digits; d++) {
      if (d === point) s += '.';
      // Leading zeros now and then, and runs of 9s and 0s (rounding boundaries).
      const kind = randomInt(random, 10);
      s += kind === 0 ? '0' : kind === 1 ? '9' : String(randomInt(random, 10));
    }
    if (point === digits) s += '.';
    if (randomInt(random, 2) === 1) {
      s += randomInt(random, 2) === 1 ? 'e' : 'E';
      const expSign = randomInt(random, 3);
      if (expSign === 1) s += '-';
      else if (expSign === 2) s += '+';
      s += String(randomInt(random, 31));
    }
    const expected = Number(s);
    const [value, end] = real(s);
    assert.equal(end, s.length, `end of '${s}'`);
    bits[0] = value!;
    bits[1] = expected;
    assert.ok(words[0] === words[2] && words[1] === words[3], `'${s}': ${value} !== ${expected}`);
  }
});

test('scanReal: decimals near the fast-path limits', () => {
  for (const s of ['999999999999999', '9999999999999999', '9007199254740993', '1e22', '1e23', '123456789012345e-22', '1234567890123456e-22', '8.98846567431158e307', '2.2250738585072011e-308', '0.000000000000000000000000000001']) {
    assertReal(s, Number(s), s.length);
  }
});

test('scanInteger: strtol base 10', () => {
  assert.deepEqual(integer('0'), [0, 1]);
  assert.deepEqual(integer('42'), [42, 2]);
  assert.deepEqual(integer('-5'), [-5, 2]);
  assert.deepEqual(integer('+5'), [5, 2]);
  assert.deepEqual(integer('007'), [7, 3]);
  assert.deepEqual(integer('12abc'), [12, 2]);
  assert.deepEqual(integer('1.5'), [1, 1]);
  assert.deepEqual(integer('1e3'), [1, 1]);
  assert.deepEqual(integer('0x10'), [0, 1]);
  assert.deepEqual(integer('3/4'), [3, 1]);
  assert.deepEqual(integer('-1,2'), [-1, 2]);
  assert.deepEqual(integer('123', 1, 2), [2, 2]);
  // strtol has no negative zero.
  const [zero] = integer('-0');
  assert.equal(zero, 0);
  for (const s of ['', '-', '+', 'x', ' 1', '.5', '--1', 'inf', 'nan']) assert.deepEqual(integer(s), [undefined, -1], `'${s}'`);
});
