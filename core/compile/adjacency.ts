// Stage: triangle adjacency, done correctly (IQE-SEMANTICS.md §6 B1): entry k of triangle t is
// the edge from corner k to corner k+1; two edges are the same when their endpoints are the same
// unordered pair of endpoint classes (equal written position and, when present, written blend
// data). Exactly two edges sharing a pair see each other's triangle; open and non-manifold edges,
// and a triangle meeting itself, get 0xFFFFFFFF.
import { newArray } from '../pages';
import { PairTable } from './classify';

export function computeAdjacency(triangles: Uint32Array | Int32Array, endpointClass: Int32Array): Uint32Array {
  const entries = triangles.length;
  const table = new PairTable(entries);
  const edgeOf = newArray(Int32Array, entries);
  let count: Int32Array = new Int32Array(1024);
  let first: Int32Array = new Int32Array(1024);
  let second: Int32Array = new Int32Array(1024);
  for (let e = 0; e < entries; e++) {
    const t = (e / 3) | 0;
    const k = e - 3 * t;
    const a = endpointClass[triangles[e]];
    const b = endpointClass[triangles[3 * t + (k === 2 ? 0 : k + 1)]];
    const id = a < b ? table.get(a, b) : table.get(b, a);
    edgeOf[e] = id;
    if (id >= count.length) {
      const grow = (old: Int32Array): Int32Array => {
        const next = newArray(Int32Array, old.length * 2);
        next.set(old);
        return next;
      };
      count = grow(count);
      first = grow(first);
      second = grow(second);
    }
    const n = count[id]++;
    if (n === 0) first[id] = e;
    else if (n === 1) second[id] = e;
  }
  const adjacency = newArray(Uint32Array, entries);
  for (let e = 0; e < entries; e++) {
    const id = edgeOf[e];
    let neighbour = -1;
    if (count[id] === 2) {
      const other = first[id] === e ? second[id] : first[id];
      const t = (e / 3) | 0;
      const u = (other / 3) | 0;
      if (u !== t) neighbour = u;
    }
    adjacency[e] = neighbour >>> 0;
  }
  return adjacency;
}
