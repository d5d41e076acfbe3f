// The page side of the browser host (../host.mjs): runs each case the host names with the
// adapter's page module, fetching the inputs and posting the output as binary bodies.
// An adapter's module exports `setup(options)` (async; loads the library and returns what its
// hello shows) and `evaluate(request, inputs)` (async; returns {dtype, shape, data} with `data`
// a typed array of the suite type, or throws an Answer).
import { TYPES } from '/nodekit/types.mjs';

// An answer other than ok, thrown by an adapter's evaluate: `rejected` (optional reason),
// `unsupported` or `error`.
export class Answer extends Error {
  constructor(status, message, reason = undefined) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

// Every GPU device a library asks for reports its uncaptured errors to the console (the host
// puts them in the case's message) and its loss to the host (the case is CRASHED).
function watchDevices() {
  if (!globalThis.GPUAdapter) return;
  const requestDevice = GPUAdapter.prototype.requestDevice;
  GPUAdapter.prototype.requestDevice = async function watched(...args) {
    const device = await requestDevice.apply(this, args);
    device.addEventListener('uncapturederror', (e) => console.error(`WebGPU uncapturederror: ${e.error.message}`));
    device.lost.then((info) => {
      if (info.reason !== 'destroyed') fetch('/lost', { method: 'POST', body: `${info.reason}: ${info.message}` });
    });
    return device;
  };
}

// What a GPU adapter's hello shows of the WebGPU adapter the library gets.
export async function webgpuInfo() {
  if (!navigator.gpu) throw new Error('navigator.gpu is missing: no WebGPU in this browser');
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('navigator.gpu.requestAdapter() gave no adapter');
  const { info } = adapter;
  return { api: 'webgpu', vendor: info.vendor, architecture: info.architecture,
    device: info.device, description: info.description,
    fallback: Boolean(info.isFallbackAdapter ?? adapter.isFallbackAdapter ?? false),
    features: [...adapter.features].sort() };
}

// The WebGL renderer string, as WEBGL_debug_renderer_info gives it, as the GPU's description
// (backends/PROTOCOL.md section 9, item 20).
export function webglInfo() {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) throw new Error('no WebGL 2 context');
  const ext = gl.getExtension('WEBGL_debug_renderer_info');
  return { api: 'webgl', vendor: gl.getParameter(ext ? ext.UNMASKED_VENDOR_WEBGL : gl.VENDOR),
    description: gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER) };
}

async function bytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return response.arrayBuffer();
}

async function run(adapter, id) {
  const request = JSON.parse(new TextDecoder().decode(await bytes(`/case/${id}/request`)));
  const input = async (n) => new TYPES[request[n].dtype].array(await bytes(`/case/${id}/${n}`));
  const model = async () => new Uint8Array(await bytes(`/case/${id}/model`));
  const inputs = { a: await input('a'), b: await input('b'), model };
  const out = await adapter.evaluate(request, inputs);
  const posted = await fetch(`/case/${id}/out`, { method: 'POST', body: out.data,
    headers: { 'X-Dtype': out.dtype, 'X-Shape': JSON.stringify(out.shape) } });
  if (!posted.ok) throw new Error(`POST of the output: ${posted.status}`);
  return { status: 'ok' };
}

export function start(adapter, options) {
  watchDevices();
  window.eltwiseReady = adapter.setup(options).catch((e) => ({ fatal: `${e.name}: ${e.message}` }));
  window.eltwiseRun = async (id) => {
    try {
      return await run(adapter, id);
    } catch (e) {
      if (e instanceof Answer) return { status: e.status, message: e.message, reason: e.reason };
      return { status: 'error', message: e && e.message ? `${e.name}: ${e.message}` : String(e) };
    }
  };
}
