"""The compiled models of an adapter, reused across requests: compiling is what costs, and a
run sends many requests with the same op, types and shapes."""
import collections

from .answers import compiled


class ModelCache:
    """The `size` most recently used models by key (graph_forms.cache_key); a None key (a model
    holding constants) is built every time and not kept. With `compiles`, each build is counted
    as a compilation of the request (answers.compiled)."""

    def __init__(self, size=64, compiles=False):
        self.size, self.models, self.compiles = size, collections.OrderedDict(), compiles

    def get(self, key, build):
        """The model for `key`, built by `build()` if it is not kept."""
        if key is None or key not in self.models:
            if self.compiles:
                compiled()
        if key is None:
            return build()
        if key in self.models:
            self.models.move_to_end(key)
            return self.models[key]
        model = build()
        self.models[key] = model
        while len(self.models) > self.size:
            self.models.popitem(last=False)
        return model

    def drop(self, key):
        """Forgets one model (one that failed and must not be reused)."""
        self.models.pop(key, None)
