// AssemblyScript (checked by its compiler, asc, not by tsc or eslint), compiled to WebAssembly by
// esbuild.mjs (never committed as a binary): classifyRows of core/compile/classify.ts for the
// small compile, whose JavaScript runs cold (hashing every double of every row boxed it): the same
// hashes (Math.imul is i32.mul), the same table and probes, rows equal as JavaScript's === finds
// them (+0 equals -0, NaN equals nothing), so the same classes in the same order.
//
// Memory, laid out by the caller, byte offsets: each column's values (f64, i32 or u8, `stride`
// per row); hashes: i32 per row; columns: i32 x 3 per column (offset, stride, kind: 0 f64, 1 i32,
// 2 u8); slots: i32 x size (a power of two); classOf: i32 per row (out).

/** Mixes a float column into the hashes; +0 and -0 hash alike. */
export function hashFloats(data: usize, stride: i32, count: i32, hashes: usize): void {
  for (let row: i32 = 0; row < count; row++) {
    let h = load<i32>(hashes + 4 * <usize>row);
    for (let k: i32 = row * stride, end = k + stride; k < end; k++) {
      const at = data + 8 * <usize>k;
      if (load<f64>(at) == 0) {
        h = h * <i32>0x9e3779b1;
        h = h * <i32>0x85ebca77;
      } else {
        h = (h ^ load<i32>(at)) * <i32>0x9e3779b1;
        h = (h ^ load<i32>(at + 4)) * <i32>0x85ebca77;
      }
    }
    store<i32>(hashes + 4 * <usize>row, h);
  }
}

/** Mixes an integer column (i32 values, or u8 with `bytes`) into the hashes. */
export function hashIntegers(data: usize, stride: i32, count: i32, hashes: usize, bytes: i32): void {
  for (let row: i32 = 0; row < count; row++) {
    let h = load<i32>(hashes + 4 * <usize>row);
    for (let k: i32 = row * stride, end = k + stride; k < end; k++) {
      const v: i32 = bytes ? <i32>load<u8>(data + <usize>k) : load<i32>(data + 4 * <usize>k);
      h = (h ^ v) * <i32>0x9e3779b1;
    }
    store<i32>(hashes + 4 * <usize>row, h);
  }
}

function rowsEqual(columns: usize, n: i32, a: i32, b: i32): bool {
  for (let c: i32 = 0; c < n; c++) {
    const d = columns + 12 * <usize>c;
    const data = <usize>load<i32>(d), stride = load<i32>(d + 4), kind = load<i32>(d + 8);
    const oa = a * stride, ob = b * stride;
    for (let k: i32 = 0; k < stride; k++) {
      if (kind == 0) {
        if (load<f64>(data + 8 * <usize>(oa + k)) != load<f64>(data + 8 * <usize>(ob + k))) return false;
      } else if (kind == 1) {
        if (load<i32>(data + 4 * <usize>(oa + k)) != load<i32>(data + 4 * <usize>(ob + k))) return false;
      } else if (load<u8>(data + <usize>(oa + k)) != load<u8>(data + <usize>(ob + k))) return false;
    }
  }
  return true;
}

/** The classes of rows 0 .. count - 1 into classOf (slots filled with -1 by the caller); the class count. */
export function classify(count: i32, hashes: usize, columns: usize, n: i32, slots: usize, mask: i32, classOf: usize): i32 {
  let classCount: i32 = 0;
  for (let row: i32 = 0; row < count; row++) {
    const h = load<i32>(hashes + 4 * <usize>row);
    let s = (h ^ <i32>(<u32>h >>> 15)) & mask;
    for (;;) {
      const other = load<i32>(slots + 4 * <usize>s);
      if (other < 0) {
        store<i32>(slots + 4 * <usize>s, row);
        store<i32>(classOf + 4 * <usize>row, classCount++);
        break;
      }
      if (load<i32>(hashes + 4 * <usize>other) == h && rowsEqual(columns, n, other, row)) {
        store<i32>(classOf + 4 * <usize>row, load<i32>(classOf + 4 * <usize>other));
        break;
      }
      s = (s + 1) & mask;
    }
  }
  return classCount;
}

/** Where the caller's memory may start (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}
