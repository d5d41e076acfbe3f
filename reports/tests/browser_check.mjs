// Opens a report.html in headless Debian Chromium and prints, as one JSON object, what a reader
// would see: each backend's matrix, the scoreboard, the failures of a clicked cell, a search, the
// failures listed under each kind of deviation (new, declared, accepted),
// every network request the page attempted, console errors, and screenshots of the three views.
// It only observes; the test harness compares the output with the truth.
//
//   node reports/tests/browser_check.mjs REPORT.html SCREENSHOT_DIR
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const [reportArg, shotArg] = process.argv.slice(2);
if (!reportArg || !shotArg) {
  process.stderr.write('usage: node browser_check.mjs REPORT.html SCREENSHOT_DIR\n');
  process.exit(2);
}
const reportUrl = pathToFileURL(path.resolve(reportArg)).href;
const shotDir = path.resolve(shotArg);
const TIMEOUT_MS = 10000;
const MAX_SHOT_HEIGHT = 5000;

// The machine has no network: these flags stop Chromium's own background connections, so that
// any request left is one the page made.
function launchOptions(profileDir) {
  return {
    executablePath: '/usr/bin/chromium',
    headless: true,
    protocolTimeout: TIMEOUT_MS,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--user-data-dir=${profileDir}`],
  };
}

// Records and aborts every request that leaves the report file itself.
async function watchPage(page, out) {
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = request.url();
    const own = url.split('#')[0] === reportUrl || url.startsWith('data:') || url.startsWith('about:');
    if (own) return request.continue();
    out.requests.push(url);
    return request.abort();
  });
  page.on('console', (msg) => { if (msg.type() === 'error') out.console_errors.push(msg.text()); });
  page.on('pageerror', (err) => out.console_errors.push(`pageerror: ${err.message}`));
}

// The matrix as shown: row ids, column dtypes, and per cell its counts and classes.
function readMatrix() {
  const table = document.getElementById('matrix');
  const columns = [...table.querySelectorAll('thead th')].slice(1).map((th) => th.textContent);
  const rows = [...table.querySelectorAll('tbody tr')].map((tr) => tr.dataset.op);
  const cells = {};
  for (const td of table.querySelectorAll('tbody td')) {
    const counts = {};
    for (const span of td.querySelectorAll('span.count')) {
      counts[span.dataset.status] = Number(span.textContent);
    }
    (cells[td.dataset.op] ??= {})[td.dataset.dtype] = { counts, classes: [...td.classList] };
  }
  return { rows, columns, cells };
}

async function readBackends(page) {
  const options = await page.$$eval('#backend option',
    (os) => os.map((o) => ({ value: o.value, label: o.textContent })));
  const backends = [];
  for (const option of options) {
    await page.select('#backend', option.value);
    backends.push({ label: option.label, ...(await page.evaluate(readMatrix)) });
  }
  return backends;
}

// A cell counts as deviating when it has any status other than PASSED, UNSUPPORTED, SKIPPED.
function firstDeviatingCell(backends) {
  const benign = new Set(['PASSED', 'UNSUPPORTED', 'SKIPPED']);
  for (const [index, b] of backends.entries())
    for (const op of b.rows)
      for (const [dtype, cell] of Object.entries(b.cells[op] || {}))
        if (Object.entries(cell.counts).some(([s, n]) => !benign.has(s) && n > 0)) {
          return { index, op, dtype };
        }
  return null;
}

const visibleFailures = () => [...document.querySelectorAll('#view-failures:not([hidden]) .failure')]
  .map((f) => ({ case: f.dataset.case, replay: f.querySelector('.replay')?.textContent ?? null }));

async function clickCell(page, backends, out) {
  const target = firstDeviatingCell(backends);
  if (!target) return;
  await page.select('#backend', String(target.index));
  const selector = `#matrix td[data-op="${CSS_escape(target.op)}"][data-dtype="${CSS_escape(target.dtype)}"]`;
  await page.click(selector);
  await page.waitForSelector('#view-failures:not([hidden])');
  out.clicked = { backend: backends[target.index].label, op: target.op, dtype: target.dtype,
    failures: await page.evaluate(visibleFailures) };
  out.clicked.filter_text = await page.$eval('#filter-text', (e) => e.textContent);
}

// Attribute values in selectors: op ids and dtypes are plain, but quote-escaping costs nothing.
const CSS_escape = (s) => s.replace(/["\\]/g, '\\$&');

// Types a middle part of the first visible failure id, as a reader searching for it would.
async function search(page, out) {
  const first = out.clicked?.failures[0]?.case;
  if (!first) return;
  const query = first.slice(Math.floor(first.length / 3), Math.floor((2 * first.length) / 3));
  await page.type('#search', query);
  const visible = await page.$$eval('#view-failures .failure', (fs) => fs.length);
  const matching = await page.$eval('#failures-count', (e) => Number(e.dataset.matching));
  out.search = { query, visible, matching };
}

// The whole page, but at most MAX_SHOT_HEIGHT pixels tall: 2000 listed disagreements make a
// page tens of thousands of pixels high, which Chromium cannot capture within the time limit.
async function screenshot(page, tab, name, out) {
  if (tab) await page.click(tab);
  const file = path.join(shotDir, name);
  const { width, height } = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
  const clip = { x: 0, y: 0, width, height: Math.min(height, MAX_SHOT_HEIGHT) };
  await page.screenshot({ path: file, clip, captureBeyondViewport: true });
  out.screenshots.push(file);
}

// Per backend, the failures view under each kind of the kind filter (new, declared, accepted):
// the total the option shows, how many listed cases match, and the kinds of those shown.
async function readKinds(page, backends, out) {
  await page.click('#tab-failures');
  // Neither the clicked cell's filter nor the search typed before narrows what follows.
  await page.$eval('#search', (e) => { e.value = ''; e.dispatchEvent(new Event('input')); });
  if (await page.$eval('#filter-indicator', (e) => !e.hidden)) await page.click('#clear-filter');
  for (const [index, b] of backends.entries()) {
    await page.select('#backend', String(index));
    const kinds = {};
    for (const kind of ['new', 'declared', 'accepted']) {
      await page.select('#kind', kind);
      kinds[kind] = await page.evaluate((k) => ({
        total: Number(document.querySelector(`#kind option[value="${k}"]`).dataset.total),
        matching: Number(document.getElementById('failures-count').dataset.matching),
        shown: [...new Set([...document.querySelectorAll('#failures .failure')].map((f) => f.dataset.kind))],
      }), kind);
    }
    await page.select('#kind', '');
    out.kinds[b.label] = kinds;
  }
}

async function observe(page, out) {
  await watchPage(page, out);
  await page.goto(reportUrl, { waitUntil: 'load', timeout: TIMEOUT_MS });
  await page.waitForSelector('#matrix tbody tr', { timeout: TIMEOUT_MS });
  out.backends = await readBackends(page);
  await page.click('#tab-scoreboard');
  out.scoreboard_labels =
    await page.$$eval('#scoreboard th.backend', (ths) => ths.map((th) => th.firstChild.textContent));
  out.disagreement_rows = await page.$$eval('#disagreements tbody tr', (trs) => trs.length);
  await page.click('#tab-matrix');
  await page.select('#backend', '0');
  await clickCell(page, out.backends, out);
  await screenshot(page, '#tab-failures', 'failures.png', out);
  await search(page, out);
  // The matrix of the backend whose cell was clicked: it shows failing cells.
  await screenshot(page, '#tab-matrix', 'matrix.png', out);
  await screenshot(page, '#tab-scoreboard', 'scoreboard.png', out);
  await readKinds(page, out.backends, out);
}

async function main() {
  fs.mkdirSync(shotDir, { recursive: true });
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eltwise-chromium-'));
  const out = { backends: [], scoreboard_labels: [], disagreement_rows: 0, clicked: null, search: null,
    kinds: {}, requests: [], console_errors: [], screenshots: [] };
  let browser;
  try {
    browser = await puppeteer.launch(launchOptions(profileDir));
    const page = await browser.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    await page.setViewport({ width: 1280, height: 900 });
    await observe(page, out);
  } catch (err) {
    // The browser never came up: nothing observed is worth reporting.
    if (!browser) throw err;
    out.error = String(err && err.message ? err.message : err);
  } finally {
    if (browser) await browser.close();
    fs.rmSync(profileDir, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((err) => {
  process.stderr.write(`browser_check: the browser could not run: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
