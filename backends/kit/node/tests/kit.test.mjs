// Unit tests of the Node adapter kit (node --test). Expected values are written by hand from
// the .npy format, backends/PROTOCOL.md and ONNX's schema, never taken from the kit.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import protobuf from 'protobufjs';

import {
  Answer, CLAIMS, ModelCache, answer, cacheKey, hello, modelBytes, npyPreamble, readNpy, writeNpy,
} from '../index.mjs';
import { ONNX_PROTO } from '../onnx_model.mjs';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-node-'));

// A .npy v1.0 written byte by byte: '<i4' [2, 3] = 1..6.
function handNpy(file) {
  let header = "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }";
  header += ' '.repeat(128 - 10 - header.length - 1) + '\n'; // 10 + header: 128 bytes
  const prefix = Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0, header.length, 0]);
  const data = Buffer.alloc(24);
  for (let i = 0; i < 6; ++i) data.writeInt32LE(i + 1, 4 * i);
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'), data]));
}

test('readNpy reads a hand-made file and checks it against the request', () => {
  const file = path.join(folder, 'a.npy');
  handNpy(file);
  assert.deepEqual([...readNpy({ path: file, dtype: 'i32', shape: [2, 3] })], [1, 2, 3, 4, 5, 6]);
  assert.throws(() => readNpy({ path: file, dtype: 'i64', shape: [2, 3] }), /the request says i64/);
  assert.throws(() => readNpy({ path: file, dtype: 'i32', shape: [6] }), /the request says i32 \[6\]/);
});

test('readNpy reads an input at its offset in the input region', () => {
  const file = path.join(folder, 'a.npy');
  handNpy(file);
  const npy = fs.readFileSync(file);
  const region = path.join(folder, 'input-region');
  fs.writeFileSync(region, Buffer.concat([Buffer.alloc(192, 7), npy, Buffer.alloc(64, 9)]));
  assert.deepEqual([...readNpy({ path: region, offset: 192, dtype: 'i32', shape: [2, 3] })],
    [1, 2, 3, 4, 5, 6]);
  assert.throws(() => readNpy({ path: region, offset: 0, dtype: 'i32', shape: [2, 3] }),
    /at offset 0: not a .npy file/);
  assert.throws(() => readNpy({ path: region, offset: 192, dtype: 'i32', shape: [3, 3] }),
    /at offset 192 holds <i4 \[2,3\], the request says i32 \[3,3\]/);
  const short = path.join(folder, 'short-region');
  fs.writeFileSync(short, npy.subarray(0, npy.length - 4));
  assert.throws(() => readNpy({ path: short, offset: 0, dtype: 'i32', shape: [2, 3] }),
    /would end past the region's 148 bytes/);
});

test('npyPreamble pads to a multiple of 64 bytes as numpy does, 1-d shapes with a comma', () => {
  const p = npyPreamble('<f4', [5]);
  assert.equal(p.length, 128); // 10 + 57 characters + newline, padded
  assert.equal(p.toString('latin1', 10, 128),
    "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }" + ' '.repeat(128 - 10 - 57 - 1) + '\n');
  assert.equal(npyPreamble('<f4', []).toString('latin1').includes("'shape': ()"), true);
});

test('writeNpy writes the file, or the region when the whole .npy fits there', () => {
  const out = path.join(folder, 'out.npy');
  const data = new Float32Array([1.5, -2]);
  assert.equal(writeNpy({ out }, 'f32', [2], data), false);
  const file = fs.readFileSync(out);
  assert.equal(file.length, 128 + 8);
  assert.equal(file.readFloatLE(128), 1.5);
  const region = path.join(folder, 'region');
  fs.writeFileSync(region, Buffer.alloc(4096));
  const inRegion = writeNpy({ out: path.join(folder, 'unused.npy'), out_region: { path: region, bytes: 4096 } },
    'f32', [2], data);
  assert.equal(inRegion, true);
  assert.equal(fs.existsSync(path.join(folder, 'unused.npy')), false);
  assert.equal(fs.readFileSync(region).readFloatLE(132), -2);
  assert.equal(writeNpy({ out, out_region: { path: region, bytes: 16 } }, 'f32', [2], data), false);
});

test('answer maps thrown answers, reasons only for rejections, and errors', async () => {
  assert.deepEqual(await answer({ id: 3 }, async () => ({ dtype: 'f32' })), { id: 3, status: 'ok', dtype: 'f32' });
  assert.deepEqual(await answer({ id: 4 }, async () => { throw new Answer('rejected', 'bad', 'shape'); }),
    { id: 4, status: 'rejected', message: 'bad', reason: 'shape' });
  assert.deepEqual(await answer({ id: 5 }, async () => { throw new Answer('unsupported', 'no'); }),
    { id: 5, status: 'unsupported', message: 'no' });
  assert.deepEqual(await answer('x', async () => { throw new TypeError('boom'); }),
    { id: -1, status: 'error', message: 'TypeError: boom' });
  assert.throws(() => new Answer('rejected', 'bad', 'value'), /not one of shape, type, attribute, other/);
});

test('hello lists runtime first and offers both regions', () => {
  assert.deepEqual(hello('lib', 1.5, {}, ['const-b']),
    { protocol: 'eltwise-backend/1', name: 'lib', version: '1.5', ops: {}, graph_forms: ['runtime', 'const-b'], output_region: true, input_region: true });
});

test('modelBytes: opset, IR version, typed legacy attributes, initializers', () => {
  const ModelProto = protobuf.loadSync(ONNX_PROTO).lookupType('onnx.ModelProto');
  const a = path.join(folder, 'a.npy');
  handNpy(a);
  const tensor = { path: a, dtype: 'i32', shape: [2, 3] };
  const legacy = ModelProto.decode(modelBytes({ op: 'onnx.Mul-6', a: tensor, b: tensor,
    attributes: { broadcast: '1', axis: '0', colour: 'red' } }));
  assert.equal(Number(legacy.irVersion), 3); // opset 6 came with IR 3
  assert.equal(legacy.opsetImport[0].version.toString(), '6');
  const attrs = Object.fromEntries(legacy.graph.node[0].attribute.map((x) => [x.name, x]));
  assert.equal(attrs.broadcast.type, 2); // INT
  assert.equal(attrs.colour.type, 3); // STRING: unknown names are passed for the runtime to judge
  const constB = ModelProto.decode(modelBytes({ op: 'onnx.Div-14', a: tensor, b: tensor, graph_form: 'const-b' }));
  assert.equal(Number(constB.irVersion), 7);
  assert.deepEqual(constB.graph.input.map((i) => i.name), ['A']);
  assert.equal(constB.graph.initializer[0].rawData.length, 24);
  assert.throws(() => modelBytes({ op: 'onnx.Mul-6', a: tensor, b: tensor, attributes: { axis: 'x' } }),
    (e) => e instanceof Answer && e.status === 'rejected');
  assert.throws(() => modelBytes({ op: 'openvino.Multiply-1', a: tensor, b: tensor }),
    (e) => e instanceof Answer && e.status === 'unsupported');
  assert.equal(CLAIMS['openvino.Multiply-1'], undefined);
  assert.equal(cacheKey({ op: 'onnx.Mul-14', a: tensor, b: tensor, graph_form: 'const-a' }), null);
});

test('ModelCache keeps the most recently used and releases the rest', async () => {
  const released = [];
  const built = [];
  const cache = new ModelCache(2, async (m) => { released.push(m); });
  for (const key of ['x', 'y', 'x', 'z', 'y']) await cache.get(key, async () => { built.push(key); return key; });
  assert.deepEqual(built, ['x', 'y', 'z', 'y']); // y was evicted by z
  assert.deepEqual(released, ['y', 'x']);
  assert.equal(await cache.get(null, async () => 'once'), 'once');
});
