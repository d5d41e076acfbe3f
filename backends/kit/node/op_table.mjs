// The op-version table for Node adapters: core/op_table.json (op_table.json here), the output of
// `eltwise-validate list --json` (docs/tests/op_table_test.py keeps the two equal). Element types,
// attributes and ids of op versions come from here, never from lists typed into an adapter.
// ELTWISE_OP_TABLE overrides the file's path. No dependencies: node:fs only.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ENV = 'ELTWISE_OP_TABLE';
export const DEFAULT_PATH = fileURLToPath(new URL('./op_table.json', import.meta.url));

export function tablePath() {
  return process.env[ENV] || DEFAULT_PATH;
}

// The op versions in table order: objects with id, domain, name, version, element_types,
// attributes.
export function load(file = tablePath()) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read the op-version table ${file} (${ENV} overrides the path): ` +
      e.message);
  }
}

export const OPS = Object.fromEntries(load().map((op) => [op.id, op])); // id -> row, table order
export const ELEMENT_TYPES = Object.fromEntries(
  Object.entries(OPS).map(([id, op]) => [id, [...op.element_types]]));
