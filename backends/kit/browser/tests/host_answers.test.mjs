// The browser host's answers (host.mjs), over the protocol, with the ort-web-wasm adapter: a
// refusal of the Node kit's model builder (an attribute text that is no int64) is a `rejected`
// answer, not a dead host, and the next request is answered from the same page. Expected values
// by hand: 1.5 x 2 = 3, 2 x 0.5 = 1.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

import { npyPreamble } from 'eltwise-adapter-kit';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const ADAPTER = path.join(ROOT, 'backends/adapters/ort-web-webgpu/ort_web_backend.mjs');

function npy(file, values) {
  const data = Buffer.from(new Float32Array(values).buffer);
  fs.writeFileSync(file, Buffer.concat([npyPreamble('<f4', [values.length]), data]));
  return { path: file, dtype: 'f32', shape: [values.length] };
}

test('an attribute the model cannot hold is rejected, and the host answers on', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'browser-host-'));
  const a = npy(path.join(dir, 'a.npy'), [1.5, 2]);
  const b = npy(path.join(dir, 'b.npy'), [2, 0.5]);
  const child = spawn(process.execPath, [ADAPTER, '--ep', 'wasm'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value);
  try {
    const hello = await next();
    assert.equal(hello.name, 'ort-web-wasm');
    assert.equal(hello.wasm.threads, 1);
    child.stdin.write(`${JSON.stringify({ id: 1, op: 'onnx.Mul-6', attributes: { broadcast: 'x' }, a, b, out: path.join(dir, '1.npy') })}\n`);
    const refused = await next();
    assert.equal(refused.status, 'rejected');
    assert.match(refused.message, /broadcast="x" is not an integer/);
    child.stdin.write(`${JSON.stringify({ id: 2, op: 'onnx.Mul-14', attributes: {}, a, b, out: path.join(dir, '2.npy') })}\n`);
    const ok = await next();
    assert.deepEqual([ok.id, ok.status, ok.dtype], [2, 'ok', 'f32']);
    const out = fs.readFileSync(path.join(dir, '2.npy'));
    assert.deepEqual([...new Float32Array(out.buffer.slice(out.byteOffset + out.length - 8, out.byteOffset + out.length))], [3, 1]);
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.on('exit', resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
