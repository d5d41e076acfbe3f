"""Graph forms (backends/PROTOCOL.md section 9): how the one-node graph gets A and B. "runtime"
(both fed at run time, exact shapes) is the default of a request without "graph_form"; const-a,
const-b, const-ab make that input a constant of the graph; dynamic leaves every dim to run time.
"""
from .answers import Unsupported

FORMS = ("runtime", "const-a", "const-b", "const-ab", "dynamic")


def graph_form(request, built):
    """The request's graph form; one the adapter does not build (`built`: the forms its hello
    lists besides runtime) is answered `unsupported`, never run as another form."""
    form = request.get("graph_form", "runtime")
    if form == "runtime" or form in built:
        return form
    forms = ", ".join(["runtime"] + [f for f in built if f != "runtime"])
    raise Unsupported(f"graph form {form!r} is not built by this backend (it builds: {forms})")


def constant_inputs(form):
    """(A is a constant of the graph, B is a constant of the graph) for a graph form."""
    return form in ("const-a", "const-ab"), form in ("const-b", "const-ab")


def with_constants(compile, f, a, b, form):
    """f(a, b) with the form's constant inputs closed over by the function `compile` builds (a
    jit or graph compiler), so that the library sees them as constants; None for a form without
    constants."""
    const_a, const_b = constant_inputs(form)
    if const_a and const_b:
        return compile(lambda: f(a, b))()
    if const_a:
        return compile(lambda y: f(a, y))(b)
    if const_b:
        return compile(lambda x: f(x, b))(a)
    return None


def cache_key(request, form, *extra):
    """What a compiled one-node model depends on: (form, op, attributes, types, shapes, extra);
    None for a form with constants, whose values are part of the model."""
    if any(constant_inputs(form)):
        return None
    a, b = request["a"], request["b"]
    attributes = tuple(sorted((k, str(v)) for k, v in request.get("attributes", {}).items()))
    return (form, request["op"], attributes, a["dtype"], tuple(a["shape"]), b["dtype"],
            tuple(b["shape"]), *extra)
