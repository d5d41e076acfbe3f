// The browser host's crash path (host.mjs): its Chromium is killed, its page or its GPU process
// crashed, while the second case is in flight (the host's test hook
// ELTWISE_BROWSER_TEST_KILL_AT). That case must be CRASHED with the host's exit status 3; the
// validator restarts the host (a new Chromium) and every later case PASSES. Needs
// ELTWISE_VALIDATE (the validator binary), Debian chromium and `npm ci` here.
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
// The processes (Chromium's among them) that inherited this run's marker: none may outlive it.
function processesOf(marker) {
  return fs.readdirSync('/proc').filter((pid) => /^[0-9]+$/.test(pid)).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').includes(`=${marker}\0`);
    } catch {
      return false; // gone, or not ours to read
    }
  });
}

function runKilling(what, extra = [], ep = 'wasm') {
  const validate = process.env.ELTWISE_VALIDATE;
  assert.ok(validate, 'ELTWISE_VALIDATE names the eltwise-validate binary');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'browser-host-'));
  const marker = path.join(dir, 'killed');
  const out = path.join(dir, 'out');
  const run = spawnSync(validate, ['run', '--backend-cmd', `${process.execPath} ${ADAPTER} --ep ${ep}`,
    '--cases', 'spec', '--op', 'onnx.Mul-14', '--dtype', 'f32', '--no-profile',
    '--shrink-budget', '0', '--out', out, ...extra], {
    env: { ...process.env, ELTWISE_BROWSER_TEST_KILL_AT: '2', ELTWISE_BROWSER_TEST_KILL_MARKER: marker,
      ELTWISE_BROWSER_TEST_KILL_WHAT: what },
    encoding: 'utf8', timeout: 110000,
  });
  assert.ok(fs.existsSync(marker), `the host killed its ${what} (validator stderr: ${run.stderr})`);
  const lines = fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map(JSON.parse);
  spawnSync('sleep', ['1']); // a killed group's last processes are reaped
  const left = processesOf(marker);
  for (const pid of left) process.kill(Number(pid), 'SIGKILL'); // the test's own leftovers
  fs.rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(left, [], `processes of the ${what} run outlived it`);
  return lines.filter((l) => l.case);
}

function assertFaultThenPassed(cases, why, status = 'CRASHED') {
  assert.ok(cases.length >= 6, `${cases.length} cases`);
  assert.deepEqual(cases.map((c) => c.status).filter((s) => s !== 'PASSED'), [status]);
  assert.equal(cases[1].status, status, 'the case in flight when it failed');
  assert.match(cases[1].message, why);
  assert.ok(cases.slice(2).every((c) => c.status === 'PASSED'), 'every case after the restart passes');
}

test('a browser killed mid-run is CRASHED, and the run goes on after the restart', () => {
  assertFaultThenPassed(runKilling('browser'), /exit status 3.*Chromium/s);
});

test('a page that crashes mid-run is CRASHED (not HUNG), and the run goes on', () => {
  assertFaultThenPassed(runKilling('page'), /exit status 3.*the page crashed/s);
});

test('a GPU device lost mid-run (its GPU process crashed) is CRASHED, and the run goes on', () => {
  assertFaultThenPassed(runKilling('gpu', [], 'webgpu'), /exit status 3.*GPU device lost/s);
});

// --timeout 10, not less: the first case after the restart creates its session, which took over
// 3 s on a 2-core machine busy with the rest of the suite (that case then HUNG too).
test('a page that stops answering is HUNG, its Chromium dies with the host, the run goes on', () => {
  assertFaultThenPassed(runKilling('hang', ['--timeout', '10']), /no answer within/, 'HUNG');
});
