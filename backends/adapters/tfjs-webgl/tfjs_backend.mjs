#!/usr/bin/env node
// An eltwise-backend/1 adapter (backends/PROTOCOL.md) for TensorFlow.js in headless Chromium, on
// the browser host (backends/kit/browser). One entry point for two adapters:
//   --backend webgl   tfjs's webgl back end, ANGLE on SwiftShader      (tfjs-webgl)
//   --backend webgpu  @tensorflow/tfjs-backend-webgpu on SwiftShader   (tfjs-webgpu)
// Each request is one call of TF.js's natural function (tf.mul, tf.div) in the page
// (tfjs_page.mjs), with WEBGL_CPU_FORWARD / WEBGPU_CPU_FORWARD off so that small tensors reach
// the GPU. See README.md for what is claimed and why.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { OPS, hello, runHost } from '../../kit/browser/host.mjs';

const at = process.argv.indexOf('--backend');
const backend = at >= 0 ? process.argv[at + 1] : 'webgl';
if (!['webgl', 'webgpu'].includes(backend)) {
  process.stderr.write(`usage: tfjs_backend.mjs --backend webgl|webgpu (got ${backend})\n`);
  process.exit(2);
}

// TF.js tensors are float32 or int32 (besides bool, complex64, string), and it broadcasts as
// numpy does: the ONNX op versions with numpy broadcasting (no legacy `broadcast` attribute),
// in f32 and i32. Integer Div is claimed so that the report shows why it is refused.
const TFJS_TYPES = ['f32', 'i32'];
const claims = Object.fromEntries(Object.values(OPS)
  .filter((op) => op.domain === 'onnx' && !op.attributes.some((a) => a.name === 'broadcast'))
  .map((op) => [op.id, op.element_types.filter((t) => TFJS_TYPES.includes(t))]));

await runHost({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  module: 'tfjs_page.mjs',
  scripts: ['@tensorflow/tfjs/dist/tf.min.js',
    ...(backend === 'webgpu' ? ['@tensorflow/tfjs-backend-webgpu/dist/tf-backend-webgpu.min.js'] : [])],
  options: { backend },
  webgl: backend === 'webgl',
  greeting: (info) => ({ ...hello(`tfjs-${backend}`, info.version, claims), ...info.hello }),
});
