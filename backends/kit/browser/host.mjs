// The browser host of eltwise-backend/1 adapters (backends/PROTOCOL.md) whose library runs in a
// web page: one Node process speaks the protocol on stdin/stdout through the Node kit and drives
// headless Debian Chromium through puppeteer-core. README.md beside this file has the design.
//
// - An HTTP server on 127.0.0.1 (ephemeral port) serves the page, the page harness (page/), the
//   adapter's page module and the libraries of node_modules/, and each case: its request as JSON,
//   its inputs (and ONNX model, when the adapter builds one) as binary bodies; the page POSTs its
//   output back as a binary body. Tensors never travel through the DevTools channel's JSON.
// - A page crash, a browser that dies or a lost GPU device ends this process with exit status 3
//   before it answers: the validator records CRASHED, as for a native crash, and restarts the
//   adapter (PROTOCOL.md section 6). A page that stops answering gets no answer: HUNG.
// - The page's console errors, uncaught errors and WebGPU uncaptured errors during a case go
//   into the answer's `message`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import puppeteer from 'puppeteer-core';
import { Answer, guardStdout, modelBytes, readNpy, serve, writeNpy } from 'eltwise-adapter-kit';

export const CHROMIUM = process.env.ELTWISE_CHROMIUM || '/usr/lib/chromium/chromium';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const NODE_MODULES = path.join(HERE, 'node_modules');
const PAGE_DIR = path.join(HERE, 'page');
const NODE_KIT = path.join(HERE, '..', 'node'); // types.mjs: plain ES, no imports
const CRASH_STATUS = 3;
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;
const MIME = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json',
};
// Test hook only (backends/kit/browser/tests): at this many'th request, once per marker file, the
// host kills its own Chromium (SIGKILL), or with KILL_WHAT=page crashes its page (chrome://crash),
// with KILL_WHAT=gpu kills Chromium's GPU process (every WebGPU device is lost; headless
// Chromium refuses chrome://gpucrash), or with KILL_WHAT=hang makes the page stop answering, so that a test
// sees each fault mid-run.
const KILL_AT = process.env.ELTWISE_BROWSER_TEST_KILL_AT;
const KILL_MARKER = process.env.ELTWISE_BROWSER_TEST_KILL_MARKER;
const KILL_WHAT = process.env.ELTWISE_BROWSER_TEST_KILL_WHAT || 'browser';

// Chromium's flags: WebGPU on SwiftShader's Vulkan (--enable-unsafe-webgpu); for WebGL, ANGLE
// on SwiftShader. Never --disable-gpu. No network of its own.
export function chromiumArgs(webgl) {
  const args = ['--no-sandbox', '--enable-unsafe-webgpu', '--no-first-run', '--disable-quic',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  if (webgl) args.push('--use-angle=swiftshader', '--enable-unsafe-swiftshader');
  return args;
}

// The Chromium this host started: its process and profile directory.
const chromium = { child: null, profile: null };

function removeProfile() {
  try {
    fs.rmSync(chromium.profile, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // a dying Chromium's last writes: the scratch directory goes at the end of the run anyway
  }
}

function stopChromium() {
  const { child } = chromium;
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (chromium.profile) removeProfile();
}

function die(why) {
  process.stderr.write(`browser host: ${why}\n`);
  stopChromium();
  process.exit(CRASH_STATUS);
}

// A file under `root` named by the URL path `rest`, or null when it leaves root.
function fileUnder(root, rest) {
  const file = path.resolve(root, `.${path.posix.normalize(`/${decodeURIComponent(rest)}`)}`);
  return file.startsWith(`${root}${path.sep}`) ? file : null;
}

function sendFile(res, file) {
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
}

function sendBytes(res, bytes, type = 'application/octet-stream') {
  res.writeHead(200, { 'Content-Type': type }).end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

// The page: classic scripts (UMD libraries) first, then the harness with the adapter's module.
function indexHtml(config) {
  const scripts = (config.scripts || []).map((s) => `<script src="/lib/${s}"></script>`).join('\n');
  return `<!doctype html><meta charset="utf-8"><title>eltwise browser host</title>\n${scripts}\n` +
    `<script type="module">import { start } from '/host/harness.mjs';\n` +
    `import * as adapter from '/adapter/${config.module}';\n` +
    `start(adapter, ${JSON.stringify(config.options || {})});</script>`;
}

// The HTTP side: the page, the libraries, and the case in flight (`state.case`).
function startServer(config, state) {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      const [, top, ...restParts] = url.pathname.split('/');
      const rest = restParts.join('/');
      if (top === '') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(indexHtml(config));
      if (top === 'favicon.ico') return void res.writeHead(204).end(); // not a console error
      if (top === 'lib') return sendFile(res, fileUnder(NODE_MODULES, rest));
      if (top === 'host') return sendFile(res, fileUnder(PAGE_DIR, rest));
      if (top === 'nodekit' && rest === 'types.mjs') return sendFile(res, path.join(NODE_KIT, rest));
      if (top === 'adapter') return sendFile(res, fileUnder(config.dir, rest));
      if (top === 'lost' && req.method === 'POST') return die(`GPU device lost: ${await readBody(req)}`);
      if (top === 'case') return await serveCase(req, res, rest, state);
      return void res.writeHead(404).end();
    } catch (e) {
      res.writeHead(500).end(String(e && e.message));
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function serveCase(req, res, rest, state) {
  const c = state.case;
  const [id, part] = rest.split('/');
  if (!c || String(c.request.id) !== id) return void res.writeHead(404).end();
  if (part === 'request') return sendBytes(res, Buffer.from(JSON.stringify(c.view)), 'application/json');
  if (part === 'a' || part === 'b') return sendBytes(res, readNpy(c.request[part]));
  if (part === 'model' && c.model) return sendBytes(res, c.model);
  if (part === 'out' && req.method === 'POST') {
    c.output = { dtype: req.headers['x-dtype'], shape: JSON.parse(req.headers['x-shape']), body: await readBody(req) };
    return void res.writeHead(204).end();
  }
  return void res.writeHead(404).end();
}

// What the page sees of a request: no paths.
function pageView(request) {
  const { id, op, attributes, graph_form: graphForm } = request;
  const tensor = (t) => ({ dtype: t.dtype, shape: t.shape });
  return { id, op, attributes: attributes || {}, graph_form: graphForm, a: tensor(request.a), b: tensor(request.b) };
}

// Chromium as this process's child in its process group: when the validator kills the group (a
// HUNG case, the end of a run) Chromium dies with it. puppeteer.launch would start it detached,
// in a group of its own, which outlives the host. Its profile goes in the validator's scratch
// directory (removed at the end of the run) and is removed when the host ends.
function startChromium(webgl) {
  const profile = fs.mkdtempSync(path.join(process.env.ELTWISE_SCRATCH || os.tmpdir(), 'chromium-'));
  const args = [...puppeteer.defaultArgs({ headless: true, args: chromiumArgs(webgl), userDataDir: profile }),
    '--remote-debugging-port=0'];
  const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  chromium.child = child;
  chromium.profile = profile;
  return new Promise((resolve, reject) => {
    let seen = '';
    const listen = (chunk) => {
      seen += chunk;
      const endpoint = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (!endpoint) return;
      child.stderr.off('data', listen);
      child.stderr.resume(); // drained and dropped, as puppeteer does: D-Bus noise mostly
      resolve(endpoint[1]);
    };
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', listen);
    child.on('exit', (code, signal) => reject(new Error(`Chromium exited (${signal || code}) before ` +
      `its DevTools endpoint: ${seen.slice(-500)}`)));
  });
}

// The end of a run: Chromium asked to quit (SIGTERM), given 1.5 s, then killed; the validator
// kills what is left 2 s after it closed stdin.
async function closeChromium(browser) {
  browser.disconnect();
  const { child } = chromium;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 1500))]);
  }
  stopChromium();
}

async function launch(config, state, server) {
  const browser = await puppeteer.connect({
    browserWSEndpoint: await startChromium(config.webgl), defaultViewport: null,
    protocolTimeout: 0, // a page that stops answering is the validator's HUNG, not ours
  });
  browser.on('disconnected', () => die('Chromium disconnected (the browser died)'));
  const page = await browser.newPage();
  page.on('error', (e) => die(`the page crashed: ${e.message}`)); // puppeteer: "Page crashed!"
  page.on('console', (m) => {
    // ORT's log lines carry terminal colours: the message is for reading.
    if (m.type() === 'error') state.errors.push(`console.error: ${m.text().replace(ANSI_COLOUR, '')}`);
  });
  page.on('pageerror', (e) => state.errors.push(`pageerror: ${e.message}`));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  const info = await page.evaluate(() => window.eltwiseReady);
  return { browser, page, info };
}

function parentOf(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

// Chromium's GPU process: the process started with --type=gpu-process below the browser process
// (a zygote's child).
function gpuProcess(browserPid) {
  for (const pid of fs.readdirSync('/proc').filter((p) => /^[0-9]+$/.test(p))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('--type=gpu-process')) continue;
      for (let up = parentOf(pid); up > 1; up = parentOf(up)) if (up === browserPid) return Number(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  throw new Error(`no GPU process under Chromium ${browserPid}`);
}

async function killForTest(page) {
  if (!KILL_AT || !KILL_MARKER || fs.existsSync(KILL_MARKER)) return;
  fs.writeFileSync(KILL_MARKER, '');
  if (KILL_WHAT === 'hang') await page.evaluate(() => new Promise(() => {})); // never resolves
  if (KILL_WHAT === 'page') page.goto('chrome://crash').catch(() => {});
  else if (KILL_WHAT === 'gpu') process.kill(gpuProcess(chromium.child.pid), 'SIGKILL');
  else process.kill(chromium.child.pid, 'SIGKILL');
}

function withErrors(message, errors) {
  const parts = [message, ...errors].filter(Boolean);
  return parts.join('; ');
}

// Runs one request in the page: the page answers {status, message, reason}; an `ok` output has
// been POSTed by then.
async function runCase(request, state, page, config) {
  // The adapter's Node-side checks (e.g. the kit's plan); what they return reaches the page.
  const view = { ...pageView(request), prepared: config.prepare ? config.prepare(request) : null };
  // The kit's one-node ONNX model, built before the page runs: its own refusals (an attribute
  // text that is no int64) are answers, not a failed HTTP request.
  const model = config.onnxModel ? modelBytes(request) : null;
  state.case = { request, view, model, output: null };
  state.errors = [];
  const result = await page.evaluate((id) => window.eltwiseRun(id), request.id);
  const c = state.case;
  state.case = null;
  if (result.status !== 'ok') {
    const response = { id: request.id, status: result.status, message: withErrors(result.message, state.errors) };
    if (result.reason) response.reason = result.reason;
    return response;
  }
  if (!c.output) throw new Error('the page answered ok without posting its output');
  const { dtype, shape, body } = c.output;
  const inRegion = writeNpy(request, dtype, shape, body);
  const response = { id: request.id, status: 'ok', dtype };
  if (inRegion) response.in_region = true;
  if (state.errors.length) response.message = withErrors('', state.errors);
  return response;
}

// Starts the browser and serves the protocol. `config`: dir (the adapter's folder, served as
// /adapter/), module (its page module there), scripts (UMD files under node_modules loaded
// first), options (given to the module's setup in the page), webgl (ANGLE on SwiftShader),
// onnxModel (serve the Node kit's one-node ONNX model of each request at /case/ID/model),
// prepare(request) (optional, in Node: throws an Answer or returns what the page gets as
// request.prepared) and greeting(info) -> the hello, from what the page's setup returned.
export async function runHost(config) {
  guardStdout();
  const state = { case: null, errors: [] };
  const server = await startServer(config, state);
  const { browser, page, info } = await launch(config, state, server);
  if (info && info.fatal) die(`the page could not start: ${info.fatal}`);
  let requests = 0;
  await serve(async (request) => {
    requests += 1;
    if (KILL_AT && requests === Number(KILL_AT)) await killForTest(page);
    try {
      return await runCase(request, state, page, config);
    } catch (e) {
      if (e instanceof Answer) {
        const response = { id: request.id, status: e.status, message: e.message };
        if (e.reason) response.reason = e.reason;
        return response;
      }
      // A dying browser rejects the evaluation just before it reports the disconnection.
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (!browser.connected) die(`Chromium died during the case: ${e.message}`);
      const id = Number.isInteger(request.id) ? request.id : -1;
      return { id, status: 'error', message: withErrors(`browser host: ${e.message}`, state.errors) };
    }
  }, config.greeting(info));
  browser.removeAllListeners('disconnected');
  await closeChromium(browser);
  server.close();
}

// What an adapter's Node side needs of the kit (bare imports resolve from this folder only).
export {
  Answer, CLAIMS, OPS, claims, hello, isDivision, leftToLibrary, plan,
} from 'eltwise-adapter-kit';
