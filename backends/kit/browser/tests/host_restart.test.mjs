// The browser host's crash path (host.mjs): its Chromium is killed, or its page crashed, while
// the second case is in flight (the host's test hook ELTWISE_BROWSER_TEST_KILL_AT). That case
// must be CRASHED with the host's exit status 3; the validator restarts the host (a new Chromium) and every later case
// PASSES. Needs ELTWISE_VALIDATE (the validator binary), Debian chromium and `npm ci` here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const ADAPTER = path.join(ROOT, 'backends/adapters/ort-web-webgpu/ort_web_backend.mjs');

// Runs spec Mul-14 f32 cases with the host's test hook set to kill `what` at the second case.
function runKilling(what) {
  const validate = process.env.ELTWISE_VALIDATE;
  assert.ok(validate, 'ELTWISE_VALIDATE names the eltwise-validate binary');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'browser-host-'));
  const marker = path.join(dir, 'killed');
  const out = path.join(dir, 'out');
  const run = spawnSync(validate, ['run', '--backend-cmd', `${process.execPath} ${ADAPTER} --ep wasm`,
    '--cases', 'spec', '--op', 'onnx.Mul-14', '--dtype', 'f32', '--no-profile',
    '--shrink-budget', '0', '--out', out], {
    env: { ...process.env, ELTWISE_BROWSER_TEST_KILL_AT: '2', ELTWISE_BROWSER_TEST_KILL_MARKER: marker,
      ELTWISE_BROWSER_TEST_KILL_WHAT: what },
    encoding: 'utf8', timeout: 110000,
  });
  assert.ok(fs.existsSync(marker), `the host killed its ${what} (validator stderr: ${run.stderr})`);
  const lines = fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map(JSON.parse);
  fs.rmSync(dir, { recursive: true, force: true });
  return lines.filter((l) => l.case);
}

function assertCrashedThenPassed(cases, why) {
  assert.ok(cases.length >= 6, `${cases.length} cases`);
  assert.deepEqual(cases.map((c) => c.status).filter((s) => s !== 'PASSED'), ['CRASHED']);
  assert.equal(cases[1].status, 'CRASHED', 'the case in flight when it died');
  assert.match(cases[1].message, /exit status 3/);
  assert.match(cases[1].message, why);
  assert.ok(cases.slice(2).every((c) => c.status === 'PASSED'), 'every case after the restart passes');
}

test('a browser killed mid-run is CRASHED, and the run goes on after the restart', () => {
  assertCrashedThenPassed(runKilling('browser'), /Chromium/);
});

test('a page that crashes mid-run is CRASHED (not HUNG), and the run goes on', () => {
  assertCrashedThenPassed(runKilling('page'), /the page crashed/);
});
