// Inputs and outputs as the protocol has them: .npy files (versions 1.0-3.0 read, 1.0 written;
// C order, little-endian), and the validator's shared output region (backends/PROTOCOL.md
// section 9, item 17), which Node cannot map but writes into with positioned writes.
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

function checkHeader(header, input) {
  const shape = JSON.stringify(header.shape);
  if (header.descr !== TYPES[input.dtype].descr || header.fortran ||
      shape !== JSON.stringify(input.shape)) {
    const order = header.fortran ? ' (Fortran order)' : '';
    throw new Error(`${input.path} holds ${header.descr} ${shape}${order}, the request says ` +
      `${input.dtype} ${JSON.stringify(input.shape)}`);
  }
}

// One input of a request ({path, dtype, shape}) as a fresh typed array, after checking that the
// file says what the request says.
export function readNpy(input) {
  const file = fs.readFileSync(input.path);
  if (file.length < 10 || file.toString('latin1', 0, 6) !== '\x93NUMPY') {
    throw new Error(`${input.path}: not a .npy file`);
  }
  const lengthBytes = file[6] === 1 ? 2 : 4;
  const headerLength = lengthBytes === 2 ? file.readUInt16LE(8) : file.readUInt32LE(8);
  const dataOffset = 8 + lengthBytes + headerLength;
  checkHeader(parseHeader(file.toString('latin1', 8 + lengthBytes, dataOffset), input.path), input);
  const type = TYPES[input.dtype];
  const bytes = elementCount(input.shape) * type.array.BYTES_PER_ELEMENT;
  if (file.length - dataOffset !== bytes) {
    throw new Error(`${input.path}: ${file.length - dataOffset} data bytes, expected ${bytes}`);
  }
  const copy = new Uint8Array(bytes); // a fresh, aligned buffer for the typed array view
  copy.set(file.subarray(dataOffset));
  return new type.array(copy.buffer);
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
