// The judge's element comparison (comparison::same_element, docs/SEMANTICS.md section 2.5): two
// elements are the same when their bits are, or when both are NaN, of any sign and payload (IEEE
// 754 leaves open which NaN comes out). -0 and +0 differ. JavaScript's === gets both wrong
// (NaN !== NaN, -0 === +0), so Node and browser code comparing outputs uses this instead.
import { TYPES } from './types.mjs';

// f16 and bf16 as the kit holds them, raw bits: NaN above the infinity's bits, sign cleared.
const HALF_INFINITY = { f16: 0x7c00, bf16: 0x7f80 };
const FLOATS = new Set(['f32', 'f64']);

const halfNan = (dtype, bits) => (bits & 0x7fff) > HALF_INFINITY[dtype];

// Two elements of suite type `dtype` as the kit's typed arrays hold them (TYPES[dtype].array):
// Numbers, BigInts, or f16/bf16 bits.
export function sameElement(dtype, x, y) {
  if (!(dtype in TYPES)) throw new Error(`sameElement: unknown element type ${JSON.stringify(dtype)}`);
  if (dtype in HALF_INFINITY) return x === y || (halfNan(dtype, x) && halfNan(dtype, y));
  // A float read from its typed array keeps its sign of zero; Object.is(NaN, NaN) is true and
  // Object.is(-0, 0) false. Integers compare by value (an integer cell never holds -0).
  return FLOATS.has(dtype) ? Object.is(x, y) : x === y;
}

// Whether two outputs of type `dtype` (typed arrays or arrays, same order) have the same elements.
export function sameOutputs(dtype, actual, expected) {
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < actual.length; ++i) {
    if (!sameElement(dtype, actual[i], expected[i])) return false;
  }
  return true;
}
