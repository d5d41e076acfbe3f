// Compiled models (sessions) reused across requests, least recently used dropped first and
// released with `release(model)` (async).
export class ModelCache {
  constructor(size = 64, release = async () => {}) {
    this.size = size;
    this.release = release;
    this.models = new Map();
  }

  // The model for `key`, built by `build()` (async) if it is not kept; a null key is built
  // every time and not kept (its caller releases it).
  async get(key, build) {
    if (key === null) return build();
    let model = this.models.get(key);
    if (model) {
      this.models.delete(key);
    } else {
      model = await build();
      while (this.models.size >= this.size) {
        const [oldKey, oldest] = this.models.entries().next().value;
        this.models.delete(oldKey);
        await this.release(oldest);
      }
    }
    this.models.set(key, model);
    return model;
  }
}
