// decimalValue (core/decimal.ts) takes exactly the words of the grammar the MD5, SMD and OBJ readers
// and the sidecar files read, with Number()'s double for each (bit for bit, -0 included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decimalPrefix, decimalValue, prefixEnd } from '../../core/decimal';

const GRAMMAR = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const expected = (word: string): number => (GRAMMAR.test(word) ? Number(word) : NaN);

test('decimalValue: hand-picked words, numbers and not', () => {
  const words = ['0', '-0', '+0', '-0.0', '1', '-1', '+1', '1.', '.5', '-.5', '+.5', '.', '-', '+', '', ' 1', '1 ', '1.2.3', '1..2', '..5', '1e5', '1E-3', '1e', '1e+', '1e-', '.e5', '1.e5', '-.5e-3', '1e5.0', '0x10', 'inf', '-inf', 'nan', 'Infinity', '1,5', '1_000', '007', '0.000001', '123456789012345', '1234567890123456', '12345678901234567890', '0.1234567890123456789', '-12345.678901234', '3.14159265358979', '9007199254740993', '1.7976931348623157e308', '4.9e-324', '1e400', '-1e-400', '00000000000000001.5', '٣', '1\u00a0', '+-1', '-+1', 'e5', '5e5e5'];
  for (const word of words) assert.ok(Object.is(decimalValue(word), expected(word)), `${JSON.stringify(word)}: ${decimalValue(word)} against ${expected(word)}`);
});

test('decimalValue: 100,000 random words from the grammar and around it', () => {
  let seed = 5;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const digits = (n: number): string => Array.from({ length: n }, () => String(next(10))).join('');
  const pieces = ['', '+', '-', '.', 'e', 'E', 'x', ' '];
  for (let i = 0; i < 100000; i++) {
    let word = [pieces[next(3)], digits(next(18)), next(2) ? '.' : '', digits(next(18))].join('');
    if (next(4) === 0) word += (next(2) ? 'e' : 'E') + pieces[next(3)] + digits(next(4));
    if (next(10) === 0) word = word.slice(0, next(word.length + 1)) + pieces[next(pieces.length)] + word.slice(next(word.length + 1));
    assert.ok(Object.is(decimalValue(word), expected(word)), `${JSON.stringify(word)}: ${decimalValue(word)} against ${expected(word)}`);
  }
});

test('decimalPrefix: the sign, digits and point of a word in one pass, its value when that is the whole word', () => {
  let seed = 11;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const pieces = ['', '+', '-', '.', 'e5', 'x', ' ', '/', '(', '1.5'];
  for (let i = 0; i < 50000; i++) {
    const word = Array.from({ length: 1 + next(6) }, () => (next(2) ? String(next(100000)) : pieces[next(pieces.length)])).join('');
    const text = `(${word})`;
    const value = decimalPrefix(text, 1, text.length - 1);
    const end = prefixEnd.at;
    const taken = text.slice(1, end);
    assert.match(taken, /^[+-]?\d*\.?\d*$/, `${JSON.stringify(word)}: took ${JSON.stringify(taken)}`);
    // It stops only where the grammar's sign, digits and single point stop.
    const rest = text.slice(end, text.length - 1);
    assert.ok(!/^\d/.test(rest), `${JSON.stringify(word)}: stopped before a digit`);
    assert.ok(rest === '' || rest[0] !== '.' || taken.includes('.'), `${JSON.stringify(word)}: stopped before its first point`);
    if (end === text.length - 1) assert.ok(Object.is(value, decimalValue(word)), `${JSON.stringify(word)}: ${value} against ${decimalValue(word)}`);
  }
});
