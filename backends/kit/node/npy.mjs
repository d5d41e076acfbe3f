// Inputs and outputs as the protocol has them: .npy files (versions 1.0-3.0 read, 1.0 written;
// C order, little-endian), and the validator's shared regions (backends/PROTOCOL.md section 9,
// items 17 and 18), which Node cannot map but reads and writes with positioned calls.
import fs from 'node:fs';

import { TYPES, elementCount } from './types.mjs';

function parseHeader(text, path) {
  const descr = /'descr':\s*'([^']*)'/.exec(text);
  const fortran = /'fortran_order':\s*(True|False)/.exec(text);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(text);
  if (!descr || !fortran || !shape) throw new Error(`${path}: malformed .npy header ${JSON.stringify(text)}`);
  const dims = shape[1].split(',').map((d) => d.trim()).filter((d) => d !== '').map(Number);
  return { descr: descr[1], fortran: fortran[1] === 'True', shape: dims };
}

function checkHeader(header, input, where) {
  const shape = JSON.stringify(header.shape);
  if (header.descr !== TYPES[input.dtype].descr || header.fortran ||
      shape !== JSON.stringify(input.shape)) {
    const order = header.fortran ? ' (Fortran order)' : '';
    throw new Error(`${where} holds ${header.descr} ${shape}${order}, the request says ` +
      `${input.dtype} ${JSON.stringify(input.shape)}`);
  }
}

// The data offset of the .npy whose first bytes are `head` (at least its preamble), after
// checking that it says what the request says; `where` names it in errors.
// Where the .npy starting with `head` (at least 12 bytes) has its data.
function headerEnd(head, where) {
  if (head.length < 12 || head.toString('latin1', 0, 6) !== '\x93NUMPY') {
    throw new Error(`${where}: not a .npy file`);
  }
  return head[6] === 1 ? 10 + head.readUInt16LE(8) : 12 + head.readUInt32LE(8);
}

function dataOffsetOf(head, input, where) {
  const dataOffset = headerEnd(head, where);
  const lengthBytes = head[6] === 1 ? 2 : 4;
  if (head.length < dataOffset) throw new Error(`${where}: the .npy header is cut short`);
  checkHeader(parseHeader(head.toString('latin1', 8 + lengthBytes, dataOffset), where), input, where);
  return dataOffset;
}

function inputBytes(input) {
  return elementCount(input.shape) * TYPES[input.dtype].array.BYTES_PER_ELEMENT;
}

// `length` bytes at `position` of the open file, into a fresh (aligned) buffer.
function readAt(fd, length, position, where) {
  const buffer = Buffer.alloc(length);
  for (let done = 0; done < length;) {
    const n = fs.readSync(fd, buffer, done, length - done, position + done);
    if (n === 0) throw new Error(`${where}: ends before byte ${position + length}`);
    done += n;
  }
  return buffer;
}

// An input in the validator's input region (backends/PROTOCOL.md section 9, item 18): the .npy
// at its offset, read with positioned reads straight into the typed array's buffer.
function readRegionNpy(input) {
  const where = `${input.path} at offset ${input.offset}`;
  const fd = fs.openSync(input.path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const end = headerEnd(readAt(fd, 12, input.offset, where), where);
    const bytes = inputBytes(input);
    if (input.offset + end + bytes > size) {
      throw new Error(`${where}: the .npy would end past the region's ${size} bytes`);
    }
    const dataOffset = dataOffsetOf(readAt(fd, end, input.offset, where), input, where);
    const data = readAt(fd, bytes, input.offset + dataOffset, where);
    const Type = TYPES[input.dtype].array;
    return new Type(data.buffer, data.byteOffset, data.length / Type.BYTES_PER_ELEMENT);
  } finally {
    fs.closeSync(fd);
  }
}

// One input of a request ({path, dtype, shape}, and `offset` in the input region) as a fresh
// typed array, after checking that the file says what the request says.
export function readNpy(input) {
  if (input.offset !== undefined) return readRegionNpy(input);
  const file = fs.readFileSync(input.path);
  const dataOffset = dataOffsetOf(file, input, input.path);
  const bytes = inputBytes(input);
  if (file.length - dataOffset !== bytes) {
    throw new Error(`${input.path}: ${file.length - dataOffset} data bytes, expected ${bytes}`);
  }
  const copy = new Uint8Array(bytes); // a fresh, aligned buffer for the typed array view
  copy.set(file.subarray(dataOffset));
  return new TYPES[input.dtype].array(copy.buffer);
}

// Magic, version and header of a .npy v1.0, padded to a multiple of 64 bytes as numpy pads it.
export function npyPreamble(descr, shape) {
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix.writeUInt16LE(header.length, 8);
  return Buffer.concat([prefix, Buffer.from(header, 'latin1')]);
}

// The region stays open while requests name the same path and size.
const region = { key: null, fd: -1 };

function regionFd(offer) {
  const key = `${offer.path} ${offer.bytes}`;
  if (region.key !== key) {
    if (region.fd >= 0) fs.closeSync(region.fd);
    region.key = null;
    region.fd = -1;
    region.fd = fs.openSync(offer.path, 'r+'); // never 'w': the region's size is sealed
    region.key = key;
  }
  return region.fd;
}

function writeAll(fd, buffer, position) {
  for (let done = 0; done < buffer.length;) {
    done += fs.writeSync(fd, buffer, done, buffer.length - done, position + done);
  }
}

// Writes the output (`data`, a typed array of the suite type `dtype`) into the offered region
// when the whole .npy fits there, else to the file `out`. Returns whether it went to the region.
export function writeNpy(request, dtype, shape, data) {
  const preamble = npyPreamble(TYPES[dtype].descr, shape);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const offer = request.out_region;
  if (offer && preamble.length + body.length <= offer.bytes) {
    let fd = -1;
    try {
      fd = regionFd(offer);
    } catch {
      fd = -1; // not reachable from here: the file will do
    }
    if (fd >= 0) {
      writeAll(fd, preamble, 0);
      writeAll(fd, body, preamble.length);
      return true;
    }
  }
  fs.writeFileSync(request.out, Buffer.concat([preamble, body]));
  return false;
}
