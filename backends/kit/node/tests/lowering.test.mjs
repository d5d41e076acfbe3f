// The Node kit's checks and lowering (lowering.mjs), with the hand-computed shapes of the Python
// kit's tests (backends/kit/python/tests/kit_test.py, class Lowering) and docs/SEMANTICS.md.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Answer, claims, keptRank, legacyBShape, pdpdBShape, plan } from '../index.mjs';

const rejected = (reason) => (e) => e instanceof Answer && e.status === 'rejected' && e.reason === reason;
const request = (op, a, b, attributes = {}, dtype = 'f32', dtypeB = dtype) => ({
  op, attributes, a: { dtype, shape: a }, b: { dtype: dtypeB, shape: b } });

test('legacy broadcast=1: B matches a run of A from axis and gets trailing 1s', () => {
  assert.deepEqual(legacyBShape([2, 3, 4, 5], [3, 4], 1), [3, 4, 1]);
  assert.deepEqual(legacyBShape([2, 3, 4, 5], [4, 5], null), [4, 5]);
  assert.deepEqual(legacyBShape([2, 3], [1, 1], null), [1, 1]); // one element: as given
  assert.throws(() => legacyBShape([2, 3, 4, 5], [1, 5], null), rejected('shape')); // 1s do not stretch
});

test('pdpd: B trailing 1s dropped, each dim equal to A or 1', () => {
  assert.deepEqual(pdpdBShape([2, 3, 4, 5], [3, 1], 1), [3, 1, 1]);
  assert.deepEqual(pdpdBShape([2, 3, 4, 5], [4, 5], -1), [4, 5]);
  assert.deepEqual(pdpdBShape([2, 3], [3, 1], 1), [3]);
  assert.throws(() => pdpdBShape([2, 3, 4, 5], [4], 1), rejected('shape'));
});

test('a one-element B keeps its rank; a reshape only where numpy needs one', () => {
  assert.deepEqual(plan(request('onnx.Mul-6', [2, 3], [1], { broadcast: '1' })).bShape, [1]);
  assert.deepEqual(plan(request('onnx.Div-1', [2, 3], [1, 1], { broadcast: '1' })).bShape, [1, 1]);
  assert.deepEqual(plan(request('openvino.Multiply-1', [2, 3], [1, 1], { auto_broadcast: 'pdpd' })).bShape, [1, 1]);
  assert.deepEqual(plan(request('openvino.Multiply-1', [3, 2], [3, 1], { auto_broadcast: 'pdpd', auto_broadcast_axis: '0' })).bShape, [3, 1]);
  assert.deepEqual(plan(request('onnx.Mul-6', [2, 3, 4], [3], { broadcast: '1', axis: '1' })).bShape, [3, 1]);
  assert.deepEqual(keptRank([2, 3], [1, 3], [3]), [1, 3]);
});

test('floor: integer Divide-1 with m_pythondiv (true by default) only', () => {
  const floor = (op, dtype, attributes) => plan(request(op, [2], [2], attributes, dtype)).floor;
  assert.equal(floor('openvino.Divide-1', 'i32', {}), true);
  assert.equal(floor('openvino.Divide-1', 'i32', { m_pythondiv: 'false' }), false);
  assert.equal(floor('openvino.Divide-1', 'i32', { pythondiv: '0' }), false);
  assert.equal(floor('openvino.Divide-1', 'f32', {}), false);
  assert.equal(floor('openvino.Multiply-1', 'i32', {}), false);
  assert.equal(floor('onnx.Div-14', 'i32', {}), false);
});

test('checks in the order types, attributes, shapes, each with its reason', () => {
  assert.throws(() => plan(request('onnx.Mul-14', [2], [2], { colour: 'x' }, 'f32', 'f64')), rejected('type'));
  assert.throws(() => plan(request('onnx.Mul-14', [2], [2], {}, 'boolean')), rejected('type'));
  assert.throws(() => plan(request('onnx.Mul-1', [2], [2], {}, 'i32')), rejected('type')); // Mul-1: floats only
  assert.throws(() => plan(request('onnx.Mul-14', [2], [3], { colour: 'x' })), rejected('attribute'));
  for (const bad of [{ broadcast: '2' }, { axis: '-1' }, { axis: 'x' }]) {
    assert.throws(() => plan(request('onnx.Mul-6', [2], [2], bad)), rejected('attribute'));
  }
  assert.throws(() => plan(request('openvino.Divide-1', [2], [2], { m_pythondiv: 'true', pythondiv: 'true' })), rejected('attribute'));
  assert.throws(() => plan(request('openvino.Multiply-1', [2], [2], { auto_broadcast: 'max' })), rejected('attribute'));
  assert.throws(() => plan(request('onnx.Mul-6', [2, 3], [3])), rejected('shape')); // broadcast=0: equal shapes
  assert.throws(() => plan(request('openvino.Multiply-1', [2, 3], [3], { auto_broadcast: 'none' })), rejected('shape'));
  assert.equal(plan(request('onnx.Mul-14', [2, 3], [2])).bShape, null); // numpy: left to the library
  assert.equal(plan(request('onnx.Mul-1', [2], [2], { consumed_inputs: '0,1' })).bShape, null);
  assert.throws(() => plan(request('onnx.Pow-15', [2], [2])), (e) => e.status === 'unsupported');
});

// One op version per test: a block naming many op ids would read as a copy of the table.
const tfjsLike = (truncating) => claims(['f32', 'i32'], truncating);
test('claims: the types the library has', () => {
  assert.deepEqual(tfjsLike(false)['onnx.Mul-14'], ['f32', 'i32']);
});
test('claims: no ONNX signed integer Div without a truncating division', () => {
  assert.deepEqual(tfjsLike(false)['onnx.Div-14'], ['f32']);
});
test('claims: ONNX signed integer Div with a truncating division', () => {
  assert.deepEqual(tfjsLike(true)['onnx.Div-7'], ['f32', 'i32']);
});
test('claims: only the types the op version allows (Mul-1: floats)', () => {
  assert.deepEqual(tfjsLike(false)['onnx.Mul-1'], ['f32']);
});
test('claims: OpenVINO Divide-1 floors or truncates by attribute: claimed on integers', () => {
  assert.deepEqual(tfjsLike(false)['openvino.Divide-1'], ['i32', 'f32']);
});
