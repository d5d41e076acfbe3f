// eltwise-adapter-kit for Node: what a JavaScript adapter of the backend protocol
// (eltwise-backend/1, backends/PROTOCOL.md) needs besides its library. README.md has an example.
export { OPS, ELEMENT_TYPES, tablePath } from './op_table.mjs';
export { TYPES, elementCount } from './types.mjs';
export { readNpy, writeNpy, npyPreamble } from './npy.mjs';
export { PROTOCOL, REASONS, Answer, hello, guardStdout, answer, send, serve } from './protocol.mjs';
export { CLAIMS, GRAPH_FORMS, CONSTANTS, parseOp, graphForm, runtimeInputs, modelBytes, cacheKey } from './onnx_model.mjs';
export { ModelCache } from './model_cache.mjs';
export { claims, isLegacy, isDivision, truncates, plan, leftToLibrary, legacyBShape, pdpdBShape, keptRank } from './lowering.mjs';
export { sameElement, sameOutputs } from './output_comparison.mjs';
