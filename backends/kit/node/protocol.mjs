// The protocol loop (backends/PROTOCOL.md sections 1, 2, 4 and 13): the hello, then one answer
// per request line until stdin closes. Node cannot redirect fd 1: silence the library, and send
// `console.log` to stderr before the library is imported (guardStdout).
import readline from 'node:readline';

export const PROTOCOL = 'eltwise-backend/1';
export const REASONS = ['shape', 'type', 'attribute', 'other'];

// An answer other than `ok`, thrown from wherever it is decided: status `rejected` (with an
// optional reason, judged against the case's invalidity in the reference's order),
// `unsupported` or `error`.
export class Answer extends Error {
  constructor(status, message, reason = undefined) {
    super(message);
    if (reason !== undefined && !REASONS.includes(reason)) {
      throw new Error(`rejection reason ${reason} is not one of ${REASONS.join(', ')}`);
    }
    this.status = status;
    this.reason = reason;
  }
}

export function hello(name, version, ops, graphForms = []) {
  const greeting = { protocol: PROTOCOL, name, version: String(version), ops };
  if (graphForms.length) greeting.graph_forms = ['runtime', ...graphForms.filter((f) => f !== 'runtime')];
  greeting.output_region = true;
  greeting.input_region = true; // readNpy reads the inputs from the region
  return greeting;
}

export function guardStdout() {
  console.log = console.error; // a library's console.log would corrupt the protocol channel
}

// Runs `evaluate(request)` (async; it returns the extra fields of an `ok` answer: dtype,
// in_region) and returns the response object; never throws.
export async function answer(request, evaluate) {
  const id = request && Number.isInteger(request.id) ? request.id : -1;
  try {
    return { id, status: 'ok', ...(await evaluate(request)) };
  } catch (e) {
    if (e instanceof Answer) {
      const response = { id, status: e.status, message: e.message };
      if (e.status === 'rejected' && e.reason) response.reason = e.reason;
      return response;
    }
    const message = e && e.message ? `${e.name || 'Error'}: ${e.message}` : String(e);
    return { id, status: 'error', message };
  }
}

export function send(message) {
  // process.stdout on a pipe is synchronous on Linux: each line is out when write returns.
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

// Sends `greeting`, then `respond(request)` (async) for each request line, one at a time.
export async function serve(respond, greeting, input = process.stdin) {
  send(greeting);
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (e) {
      send({ id: -1, status: 'error', message: `request is not JSON: ${e.message}` });
      continue;
    }
    send(await respond(request));
  }
}
