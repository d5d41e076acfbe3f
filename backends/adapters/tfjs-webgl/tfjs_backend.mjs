#!/usr/bin/env node
// An eltwise-backend/1 adapter (backends/PROTOCOL.md) for TensorFlow.js in headless Chromium, on
// the browser host (backends/kit/browser). One entry point for two adapters:
//   --backend webgl   tfjs's webgl back end, ANGLE on SwiftShader      (tfjs-webgl)
//   --backend webgpu  @tensorflow/tfjs-backend-webgpu on SwiftShader   (tfjs-webgpu)
// Each request is one call of TF.js's natural function (tf.mul, tf.div, tf.floorDiv) in the page
// (tfjs_page.mjs), with WEBGL_CPU_FORWARD / WEBGPU_CPU_FORWARD off so that small tensors reach
// the GPU. See README.md for what is claimed and why.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import {
  Answer, claims, hello, isDivision, leftToLibrary, plan, runHost,
} from '../../kit/browser/host.mjs';

const at = process.argv.indexOf('--backend');
const backend = at >= 0 ? process.argv[at + 1] : 'webgl';
if (!['webgl', 'webgpu'].includes(backend)) {
  process.stderr.write(`usage: tfjs_backend.mjs --backend webgl|webgpu (got ${backend})\n`);
  process.exit(2);
}

// TF.js tensors are float32 or int32 (besides bool, complex64, string). Claims as the Python
// kit decides them (op_table.claims): every op version in those types, but not ONNX's signed
// integer Div, which truncates: TF.js has no truncating division (tf.div on int32 floors).
const TFJS_TYPES = ['f32', 'i32'];

// A converter's part, in Node: the op version's checks, and legacy / pdpd broadcasting lowered
// to numpy's by reshaping B (the Node kit's plan, as the Python tensorflow adapter does it).
function prepare(request) {
  const p = plan(request, leftToLibrary);
  if (isDivision(p.op) && p.dtype.startsWith('i') && !p.floor) {
    throw new Answer('unsupported', `${p.op} truncates integer quotients; TF.js has no truncating `
      + 'division (tf.div on int32 floors)');
  }
  return p;
}

await runHost({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  module: 'tfjs_page.mjs',
  scripts: ['@tensorflow/tfjs/dist/tf.min.js',
    ...(backend === 'webgpu' ? ['@tensorflow/tfjs-backend-webgpu/dist/tf-backend-webgpu.min.js'] : [])],
  options: { backend },
  prepare,
  webgl: backend === 'webgl',
  greeting: (info) => ({ ...hello(`tfjs-${backend}`, info.version, claims(TFJS_TYPES, false)), ...info.hello }),
});
