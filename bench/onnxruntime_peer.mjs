// onnxruntime-node peer of eltwise-bench: the rows of bench/rows.json as one-node ONNX models
// (opset 14 Mul / Div, the Node adapter kit's modelBytes), run on ORT's CPU execution provider
// with intra-op threads = all cores. Prints one JSON line per row with the keys eltwise-bench
// uses; the median of --reps timed session.run calls after --warmup untimed ones.
// ONNX Div truncates integers, so ORT is a peer of the trunc rows only (floor rows: n/a).
// Inputs use rows.json's integer_inputs ranges (from a 32-bit hash, not the same values as eltwise-bench).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPS, modelBytes, pdpdBShape, sameElement } from 'eltwise-adapter-kit';
import * as ort from 'onnxruntime-node';

// onnxruntime-common tensor type names (it has no bfloat16)
const ORT_TYPE = { f32: 'float32', f16: 'float16', i8: 'int8', i16: 'int16', i32: 'int32', i64: 'int64',
                   u8: 'uint8', u16: 'uint16', u32: 'uint32', u64: 'uint64' };
// The typed array of each integer type: it also wraps a spot-checked result into the type.
const INT_ARRAY = { i8: Int8Array, i16: Int16Array, i32: Int32Array, i64: BigInt64Array, u8: Uint8Array,
                    u16: Uint16Array, u32: Uint32Array, u64: BigUint64Array };

// The op-version id of ONNX `name` (Mul, Div) at opset 14, from the table.
function opsetFourteen(name) {
  return Object.values(OPS).find((o) => o.domain === 'onnx' && o.name === name && o.version === 14).id;
}

// ---- shapes ----
// B's shape under ORT's numpy broadcasting: pdpd lowered as the adapters lower it (the Node
// kit's lowering.mjs).
function numpyBShape(row, a, b) {
  const rule = row.broadcast ?? 'numpy';
  if (rule === 'numpy') return [...b];
  if (rule === 'pdpd') return pdpdBShape(a, b, row.axis ?? -1);
  throw new Error(`row ${row.id}: broadcast ${JSON.stringify(rule)} is neither numpy nor pdpd`);
}
function broadcastShape(a, b) {
  const n = Math.max(a.length, b.length);
  const out = [];
  for (let i = 0; i < n; ++i) {
    const x = a[a.length - n + i] ?? 1, y = b[b.length - n + i] ?? 1;
    out.push(x === 1 ? y : x);
  }
  return out;
}
const count = (shape) => shape.reduce((p, d) => p * d, 1);

// ---- inputs ----
function hash32(x) {  // murmur3 fmix32
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
// Integers: rows.json's integer_inputs ranges (within 2^53, so exact as Numbers), from a 52-bit
// hash; a signed type's divisor gets a random sign.
function integerInput(row, operand, n, seed, ranges) {
  const key = row.op === 'multiply' ? 'multiply' : operand === 'a' ? 'dividend' : 'divisor';
  const [lo, hi] = ranges[row.dtype][key];
  const span = hi - lo + 1, signed = row.dtype.startsWith('i'), wide = row.dtype.endsWith('64');
  const v = new INT_ARRAY[row.dtype](n);
  for (let i = 0; i < n; ++i) {
    const h = hash32(seed ^ hash32(i)), h2 = hash32(h);
    let x = lo + (((h >>> 1) * 2 ** 21 + (h2 >>> 11)) % span);
    if (key === 'divisor' && signed && (h & 1)) x = -x;
    v[i] = wide ? BigInt(x) : x;
  }
  return v;
}
function makeInput(row, operand, shape, ranges) {
  const n = count(shape);
  const seed = operand === 'a' ? 0x1234567 : 0x89abcdef;
  switch (row.dtype) {
    case 'f32': {
      const v = new Float32Array(n);
      for (let i = 0; i < n; ++i) {
        const h = hash32(seed ^ hash32(i));
        const m = 0.5 + 1.5 * ((h >>> 1) / 2 ** 31);
        v[i] = h & 1 ? -m : m;
      }
      return v;
    }
    case 'f16': {  // sign, exponent 14 or 15 ([0.5, 2)), random 10-bit mantissa
      const v = new Uint16Array(n);
      for (let i = 0; i < n; ++i) {
        const h = hash32(seed ^ hash32(i));
        v[i] = ((h & 1) << 15) | ((14 + ((h >>> 1) & 1)) << 10) | ((h >>> 2) & 0x3ff);
      }
      return v;
    }
    default:
      if (row.dtype in INT_ARRAY) return integerInput(row, operand, n, seed, ranges);
      throw new Error(`no input for ${row.dtype}`);
  }
}

// Recomputes a sample of outputs (first, last and strided indices); f16 is not checked.
// Compared as the judge compares (the kit's sameElement: same bits, or both NaN).
// Returns the number of mismatching samples, or null when unchecked.
function spotCheck(row, a, aShape, b, bShape, c, cShape) {
  if (row.dtype === 'f16') return null;
  const n = cShape.length;
  const stridesOf = (shape) => {
    const s = new Array(n).fill(0);
    let step = 1;
    for (let d = shape.length - 1; d >= 0; --d) {
      s[n - shape.length + d] = shape[d] === 1 ? 0 : step;
      step *= shape[d];
    }
    return s;
  };
  const sa = stridesOf(aShape), sb = stridesOf(bShape);
  const total = count(cShape);
  const samples = new Set();
  for (let k = 0; k < Math.min(64, total); ++k) samples.add(k).add(total - 1 - k);
  for (let k = 0; k < total; k += Math.max(1, Math.floor(total / 997))) samples.add(k);
  let bad = 0;
  for (const flat of samples) {
    let rest = flat, ia = 0, ib = 0;
    for (let d = n - 1; d >= 0; --d) {
      const i = rest % cShape[d];
      rest = Math.floor(rest / cShape[d]);
      ia += i * sa[d];
      ib += i * sb[d];
    }
    const x = a[ia], y = b[ib];
    let want;
    if (row.dtype === 'f32') {
      want = Math.fround(row.op === 'multiply' ? x * y : x / y);
    } else {  // exact (BigInt, or Numbers below 2^53 for these ranges), wrapped into the type
      const cell = new INT_ARRAY[row.dtype](1);
      cell[0] = row.op === 'multiply' ? x * y : typeof x === 'bigint' ? x / y : Math.trunc(x / y);
      want = cell[0];
    }
    if (!sameElement(row.dtype, c[flat], want)) ++bad;  // the judge's rule: same bits, or both NaN
  }
  return bad;
}

function opType(row) {  // [op type, or null and why]
  if (!(row.dtype in ORT_TYPE)) return [null, `onnxruntime-node has no ${row.dtype} tensor type`];
  if (row.op === 'multiply') return ['Mul', null];
  if (row.rounding === 'floor') return [null, 'ONNX Div truncates integers (no floor division)'];
  return ['Div', null];
}

const emit = (line) => console.log(JSON.stringify(line));

async function medianTime(f, warmup, reps) {
  for (let i = 0; i < warmup; ++i) await f();
  const t = [];
  for (let i = 0; i < reps; ++i) {
    const start = process.hrtime.bigint();
    await f();
    t.push(Number(process.hrtime.bigint() - start) * 1e-9);
  }
  t.sort((x, y) => x - y);
  const m = t.length >> 1;
  return t.length % 2 ? t[m] : (t[m - 1] + t[m]) / 2;
}

function parseArgs(argv) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const o = { smoke: false, reps: 7, warmup: 1, rows: path.join(here, 'rows.json'), only: [] };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--smoke') o.smoke = true;
    else if (a === '--reps') o.reps = Number(argv[++i]);
    else if (a === '--warmup') o.warmup = Number(argv[++i]);
    else if (a === '--rows') o.rows = argv[++i];
    else if (a === '--only') o.only.push(argv[++i]);
    else {
      console.error(`usage: onnxruntime_peer.mjs [--smoke] [--reps N] [--warmup N] [--rows FILE] [--only ID]...`);
      process.exit(2);
    }
  }
  if (!(o.reps >= 1) || !(o.warmup >= 0)) {
    console.error('onnxruntime_peer: --reps must be >= 1 and --warmup >= 0');
    process.exit(2);
  }
  return o;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const [reps, warmup] = o.smoke ? [1, 0] : [o.reps, o.warmup];
  const threads = os.availableParallelism ? os.availableParallelism() : os.cpus().length;
  const doc = JSON.parse(readFileSync(o.rows, 'utf8'));
  const rows = doc.rows;
  const version = JSON.parse(readFileSync(new URL(import.meta.resolve('onnxruntime-node/package.json')))).version;
  emit({ meta: { impl: 'onnxruntime', onnxruntime_node: version, threads, reps, warmup,
                 mode: o.smoke ? 'smoke' : 'full' } });
  for (const row of rows) {
    if (o.only.length && !o.only.includes(row.id)) continue;
    const na = (reason) => emit({ row: row.id, impl: 'onnxruntime', status: 'n/a', reason });
    const [op, reason] = opType(row);
    if (!op) {
      na(reason);
      continue;
    }
    const shapes = o.smoke ? row.smoke : row;
    const aShape = shapes.a, bShape = numpyBShape(row, shapes.a, shapes.b);
    const cShape = broadcastShape(aShape, bShape);
    let session;
    try {
      const model = modelBytes({ op: opsetFourteen(op), a: { dtype: row.dtype, shape: aShape },
                                 b: { dtype: row.dtype, shape: bShape } });
      session = await ort.InferenceSession.create(model, {
        executionProviders: ['cpu'], intraOpNumThreads: threads, interOpNumThreads: 1,
        graphOptimizationLevel: 'all' });
    } catch (e) {
      na(`onnxruntime: ${String(e.message ?? e).split('\n')[0]}`);
      continue;
    }
    const type = ORT_TYPE[row.dtype];
    const a = new ort.Tensor(type, makeInput(row, 'a', aShape, doc.integer_inputs), aShape);
    const b = new ort.Tensor(type, makeInput(row, 'b', bShape, doc.integer_inputs), bShape);
    const size = a.data.BYTES_PER_ELEMENT;
    let note = 'session.run with a preallocated output';
    let run;
    try {  // preallocated output when the binding takes it, else ORT allocates (its arena)
      const c = new ort.Tensor(type, new a.data.constructor(count(cShape)), cShape);
      run = () => session.run({ A: a, B: b }, { C: c });
      await run();
    } catch {
      note = 'session.run, output allocated by ORT';
      run = () => session.run({ A: a, B: b });
      try {
        await run();
      } catch (e) {
        na(`onnxruntime: ${String(e.message ?? e).split('\n')[0]}`);
        continue;
      }
    }
    const outputs = await run();
    const mismatches = spotCheck(row, a.data, aShape, b.data, bShape, outputs.C.data, cShape);
    const seconds = await medianTime(run, warmup, reps);
    const elements = count(cShape);
    const bytes = (count(aShape) + count(bShape) + elements) * size;
    emit({ row: row.id, impl: 'onnxruntime', status: 'ok', median_s: seconds, reps, bytes, elements,
           gb_per_s: bytes / seconds * 1e-9, gelem_per_s: elements / seconds * 1e-9, threads,
           ...(mismatches === null ? {} : { spot_check_mismatches: mismatches }),
           note: `${note}; ${threads} intra-op threads` });
    await session.release();
  }
}

main().catch((e) => {
  console.error(`onnxruntime_peer: ${e.stack ?? e}`);
  process.exit(1);
});
