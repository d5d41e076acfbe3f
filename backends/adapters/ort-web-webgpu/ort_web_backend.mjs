#!/usr/bin/env node
// An eltwise-backend/1 adapter (backends/PROTOCOL.md) for onnxruntime-web in headless Chromium,
// on the browser host (backends/kit/browser). One entry point for three adapters:
//   --ep webgpu  ort.webgpu.min.mjs, the native WebGPU execution provider  (ort-web-webgpu)
//   --ep jsep    ort.min.mjs with executionProviders ['webgpu'], JSEP      (ort-web-jsep)
//   --ep wasm    ort.min.mjs with the wasm (CPU) execution provider        (ort-web-wasm)
// Each request becomes the Node kit's one-node ONNX model, loaded into an InferenceSession in
// the page (ort_web_page.mjs) and run once. ONNX Runtime decides everything; see README.md.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import { CLAIMS, hello, runHost } from '../../kit/browser/host.mjs';

const NAMES = { webgpu: 'ort-web-webgpu', jsep: 'ort-web-jsep', wasm: 'ort-web-wasm' };
const at = process.argv.indexOf('--ep');
const ep = at >= 0 ? process.argv[at + 1] : 'webgpu';
if (!NAMES[ep]) {
  process.stderr.write(`usage: ort_web_backend.mjs --ep webgpu|jsep|wasm (got ${ep})\n`);
  process.exit(2);
}

await runHost({
  dir: path.dirname(fileURLToPath(import.meta.url)),
  module: 'ort_web_page.mjs',
  options: { ep },
  onnxModel: true,
  greeting: (info) => ({ ...hello(NAMES[ep], info.version, CLAIMS), ...info.hello }),
});
