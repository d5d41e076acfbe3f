// The judge's rule (comparison::same_element, docs/SEMANTICS.md section 2.5) in the Node kit: the
// same bits, or both NaN; -0 and +0 differ. Values written as bit patterns by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { sameElement, sameOutputs } from '../index.mjs';

const f32 = (...bits) => new Float32Array(new Uint32Array(bits).buffer);
const f64 = (...bits) => new Float64Array(new BigUint64Array(bits).buffer);

test('NaNs of different payloads and signs are the same', () => {
  assert.ok(sameOutputs('f32', f32(0x7fc00000, 0xffc00001, 0x7f800001), f32(0x7fc00001, 0x7fc00000, 0xffffffff)));
  assert.ok(sameOutputs('f64', f64(0x7ff8000000000000n, 0xfff0000000000001n), f64(0xfff8000000000000n, 0x7ff8000000000000n)));
  assert.ok(sameOutputs('f16', new Uint16Array([0x7e00, 0xfc01]), new Uint16Array([0xfc01, 0x7e00])));
  assert.ok(sameOutputs('bf16', new Uint16Array([0x7fc0, 0xff81]), new Uint16Array([0xff81, 0x7fc0])));
});

test('zeros of different signs differ', () => {
  assert.equal(sameOutputs('f32', f32(0x80000000), f32(0)), false);
  assert.equal(sameOutputs('f64', f64(0x8000000000000000n), f64(0n)), false);
  assert.equal(sameElement('f32', -0, 0), false);
  assert.equal(sameElement('f16', 0x8000, 0), false);
  assert.equal(sameElement('bf16', 0x8000, 0), false);
});

test('the same bits are the same, other bits not', () => {
  assert.ok(sameOutputs('f32', f32(0x3fc00000, 0xff800000, 1), f32(0x3fc00000, 0xff800000, 1)));
  assert.equal(sameOutputs('f32', f32(0x3fc00000), f32(0x3fc00001)), false);
  assert.equal(sameElement('bf16', 0x7f80, 0x7f81), false); // +inf is no NaN
  assert.equal(sameElement('f16', 0x7c00, 0xfc00), false); // +inf, -inf
  assert.ok(sameOutputs('i64', new BigInt64Array([-1n, 7n]), new BigInt64Array([-1n, 7n])));
  assert.equal(sameOutputs('u8', new Uint8Array([1]), new Uint8Array([2])), false);
  assert.equal(sameOutputs('i32', new Int32Array(2), new Int32Array(3)), false); // lengths differ
  assert.throws(() => sameElement('f8', 0, 0), /unknown element type "f8"/);
});
