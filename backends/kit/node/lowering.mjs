// What a model converter does before it calls a library's element-wise Mul/Div: the checks of
// the op version and the lowering of the broadcast rules the library does not have (ONNX legacy
// broadcast/axis, OpenVINO pdpd) to numpy broadcasting by reshaping B. The Node twin of the
// Python kit's checks.py and lowering.py (docs/SEMANTICS.md sections 1 and 3): same checks, same
// order (types, attributes, shapes), same reasons; the values come from the op-version table.
import { OPS } from './op_table.mjs';
import { Answer } from './protocol.mjs';

const INTEGER = /^-?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_END = 2n ** 63n;

// ONNX Mul/Div-1 and -6: broadcasting by their `broadcast` and `axis` attributes.
export function isLegacy(op) {
  return OPS[op].attributes.some((a) => a.name === 'broadcast');
}

export function isDivision(op) {
  return ['Div', 'Divide'].includes(OPS[op]?.name);
}

// ONNX Div truncates signed integer quotients toward zero.
export function truncates(op, dtype) {
  return op.startsWith('onnx.') && isDivision(op) && dtype.startsWith('i');
}

// (op version -> types) for a library: the table's types it has, and ONNX's truncating signed
// integer division only if it has such a division.
export function claims(libraryTypes, truncatingDivision) {
  return Object.fromEntries(Object.values(OPS).map((op) => [op.id, op.element_types.filter(
    (t) => libraryTypes.includes(t) && (truncatingDivision || !truncates(op.id, t)))]));
}

function rejectAttribute(op, name, text) {
  throw new Answer('rejected', `${op}: attribute ${name}=${JSON.stringify(text)} is invalid`, 'attribute');
}

export function shapeError(a, b, rule, why) {
  const text = (shape) => JSON.stringify(shape);
  throw new Answer('rejected', `cannot broadcast A ${text(a)} with B ${text(b)} under ${rule}: ${why}`, 'shape');
}

export function checkTypes(op, a, b) {
  if (a === 'boolean' || b === 'boolean') {
    throw new Answer('rejected', `${op}: arguments cannot have boolean element type`, 'type');
  }
  if (a !== b) throw new Answer('rejected', `${op}: A is ${a} but B is ${b}; both must have the same type`, 'type');
  if (!OPS[op].element_types.includes(a)) {
    throw new Answer('rejected', `${op} does not allow element type ${a}`, 'type');
  }
}

function isInt64(text, minimum = INT64_MIN) {
  return INTEGER.test(text) && BigInt(text) >= BigInt(minimum) && BigInt(text) < INT64_END;
}

function attributeValue(op, spec, text) {
  let value = String(text).toLowerCase(); // the specs' enum and bool values are case-insensitive
  let ok;
  if (spec.type === 'string') ok = spec.allowed.includes(value);
  else if (spec.type === 'int') ok = isInt64(value, spec.minimum ?? INT64_MIN);
  else if (spec.type === 'bool') {
    ok = ['true', 'false', '1', '0'].includes(value);
    value = { 1: 'true', 0: 'false' }[value] ?? value;
  } else throw new Answer('unsupported', `${op}: attribute ${spec.name} has type ${spec.type}, unknown here`);
  if (!ok) rejectAttribute(op, spec.name, text);
  return value;
}

// ONNX 7+ and OpenVINO: {rule, floor, values} after checking every attribute.
export function resolveAttributes(op, attributes) {
  const specs = Object.fromEntries(OPS[op].attributes.map((a) => [a.name, a]));
  const aliases = Object.fromEntries(OPS[op].attributes.filter((a) => a.alias).map((a) => [a.alias, a.name]));
  const values = Object.fromEntries(OPS[op].attributes.map((a) => [a.name, a.default]));
  const given = new Set();
  for (const [key, text] of Object.entries(attributes)) {
    const name = aliases[key] ?? key;
    if (!specs[name]) throw new Answer('rejected', `${op} has no attribute ${JSON.stringify(key)}`, 'attribute');
    if (given.has(name)) throw new Answer('rejected', `${op}: attribute ${name} is given twice`, 'attribute');
    values[name] = attributeValue(op, specs[name], text);
    given.add(name);
  }
  return { rule: values.auto_broadcast ?? 'numpy', floor: values.m_pythondiv === 'true', values };
}

function legacyValue(op, spec, text) {
  const value = String(text).toLowerCase();
  if (spec.type === 'ints') { // consumed_inputs: ignored by the spec, only its syntax is checked
    if (value && !value.split(',').every((v) => INTEGER.test(v))) rejectAttribute(op, spec.name, text);
    return null;
  }
  if (!isInt64(value)) rejectAttribute(op, spec.name, text);
  if (spec.allowed && !spec.allowed.map(Number).includes(Number(value))) rejectAttribute(op, spec.name, text);
  if (spec.minimum !== undefined && BigInt(value) < BigInt(spec.minimum)) rejectAttribute(op, spec.name, text);
  return Number(value);
}

// ONNX Mul/Div-1/6: {broadcast, axis (or null)} after checking every attribute.
export function legacyAttributes(op, attributes) {
  const specs = Object.fromEntries(OPS[op].attributes.map((a) => [a.name, a]));
  const values = {};
  for (const [name, text] of Object.entries(attributes)) {
    if (!specs[name]) throw new Answer('rejected', `${op} has no attribute ${JSON.stringify(name)}`, 'attribute');
    values[name] = legacyValue(op, specs[name], text);
  }
  return { broadcast: values.broadcast === 1, axis: values.axis ?? null };
}

const same = (x, y) => x.length === y.length && x.every((d, i) => d === y[i]);

// B's shape for numpy broadcasting under ONNX legacy broadcast=1.
export function legacyBShape(a, b, axis) {
  const rule = `onnx legacy broadcast=1 axis=${axis === null ? 'None' : axis}`;
  if (b.length > a.length) shapeError(a, b, rule, 'rank(B) exceeds rank(A)');
  if (axis !== null && axis + b.length > a.length) shapeError(a, b, rule, "B's dims do not fit in A from axis");
  if (b.every((d) => d === 1)) return [...b]; // one element: numpy broadcasts it as it is
  const start = axis === null ? a.length - b.length : axis;
  if (!same(a.slice(start, start + b.length), b)) {
    shapeError(a, b, rule, "B must equal a contiguous run of A's dims (1s do not stretch)");
  }
  return [...b, ...Array(a.length - start - b.length).fill(1)];
}

// B's shape for numpy broadcasting under OpenVINO pdpd with auto_broadcast_axis.
export function pdpdBShape(a, b, axis) {
  const rule = `pdpd axis=${axis}`;
  if (b.length > a.length) shapeError(a, b, rule, 'rank(B) exceeds rank(A)');
  const start = axis === -1 ? a.length - b.length : axis;
  const kept = [...b];
  while (kept.length && kept[kept.length - 1] === 1) kept.pop();
  if (start + kept.length > a.length) {
    shapeError(a, b, rule, "B's dims (trailing 1s dropped) do not fit in A from axis");
  }
  kept.forEach((d, i) => {
    if (d !== 1 && d !== a[start + i]) {
      shapeError(a, b, rule, `B dim ${i} (${d}) must equal A dim ${start + i} or be 1`);
    }
  });
  return [...kept, ...Array(a.length - start - kept.length).fill(1)];
}

// B's own shape where numpy broadcasting reads it as `lowered` (leading 1s aside), else `lowered`.
export function keptRank(a, b, lowered) {
  const core = (shape) => {
    const s = [...shape];
    while (s.length && s[0] === 1) s.shift();
    return s;
  };
  return b.length <= a.length && same(core(b), core(lowered)) ? [...b] : [...lowered];
}

// No shape check: for a library that checks numpy broadcasting itself (its error is mapped to
// `rejected` around the call).
export function leftToLibrary() {}

// Checks a request and lowers its broadcast rule: {op, dtype, floor (integer division floors:
// Divide-1 with m_pythondiv), bShape (null: as given)}. `checkNumpy(a, b)` runs where the rule is
// numpy broadcasting.
export function plan(request, checkNumpy = leftToLibrary) {
  const { op } = request;
  if (!OPS[op]) throw new Answer('unsupported', `this backend does not implement ${op}`);
  const a = request.a.shape;
  const b = request.b.shape;
  const dtype = request.a.dtype;
  checkTypes(op, dtype, request.b.dtype);
  const attributes = request.attributes || {};
  if (isLegacy(op)) {
    const { broadcast, axis } = legacyAttributes(op, attributes);
    if (!broadcast) {
      if (!same(a, b)) shapeError(a, b, 'onnx legacy broadcast=0', 'the shapes must be equal');
      return { op, dtype, floor: false, bShape: null };
    }
    return { op, dtype, floor: false, bShape: keptRank(a, b, legacyBShape(a, b, axis)) };
  }
  const { rule, floor, values } = resolveAttributes(op, attributes);
  const result = { op, dtype, floor: floor && 'iu'.includes(dtype[0]), bShape: null };
  if (rule === 'pdpd') {
    result.bShape = keptRank(a, b, pdpdBShape(a, b, Number(values.auto_broadcast_axis ?? -1)));
  } else if (rule === 'none' && !same(a, b)) {
    shapeError(a, b, 'auto_broadcast=none', 'the shapes must be equal');
  } else {
    checkNumpy(a, b);
  }
  return result;
}
