"""What an adapter answers (backends/PROTOCOL.md section 4), and the one function that turns an
evaluation into that answer. Where a library error becomes which answer is PROTOCOL.md section
13, "Mapping what happens to an answer":
- the library refuses the inputs as invalid (its error for a bad type, attribute or shape):
  raise Rejected, with a reason only when the library's error type or code tells the class;
- valid inputs the library cannot compute as the spec says: raise Unsupported;
- the library failed otherwise (running a model it accepted): raise Failed, or let its
  exception through; both are answered `error` with the message.
"""
import numpy as np

from . import tensors

REASONS = ("shape", "type", "attribute", "other")  # the protocol's rejection reasons


class Rejected(Exception):
    """The inputs are invalid for the op version: the answer is `rejected`. `reason`, if given,
    is one of REASONS and is judged against the class of the case's invalidity (types before
    attributes before shapes, PROTOCOL.md section 9 item 11): give it only when the library's
    own error says it, or when the adapter's check runs in that order."""

    def __init__(self, message, reason=None):
        if reason is not None and reason not in REASONS:
            raise ValueError(f"rejection reason {reason!r} is not one of {', '.join(REASONS)}")
        super().__init__(message)
        self.reason = reason


class Unsupported(Exception):
    """Valid inputs that the library cannot compute as the spec says: `unsupported`."""


class Failed(Exception):
    """The library failed on inputs it accepted: `error`, with exactly this message."""


class Output:
    """A result with its element type named: for a library whose bf16 results come back as
    another 2-byte type (raw bits as uint16 or float16), Output(array, "bf16")."""

    def __init__(self, array, dtype):
        self.array, self.dtype = array, dtype


def message(e):
    return f"{type(e).__name__}: {e}".strip()


_compilations = 0  # made since the last answer, see compiled()


def compiled(count=1):
    """Counts compilations the current request made (a model or kernel built and compiled, not
    one taken from a cache); answer() reports them as the response's `compilations`
    (backends/PROTOCOL.md section 9 item 19)."""
    global _compilations
    _compilations += count


def answer(request, evaluate, write=tensors.write_output):
    """Runs `evaluate(request)` and returns the response object; never raises. `evaluate`
    returns the result (an array, a numpy scalar, or an Output); `write(request, array, dtype)`
    writes it, into the validator's output region when the request offers one, else to the file
    `out`, and returns whether it went to the region."""
    response = {"id": request.get("id", -1) if isinstance(request, dict) else -1}
    try:
        result = evaluate(request)
        array = result.array if isinstance(result, Output) else np.asarray(result)
        dtype = result.dtype if isinstance(result, Output) else tensors.type_name(array.dtype)
        in_region = write(request, array, dtype)
        response["status"] = "ok"
        if dtype:  # else the file says it
            response["dtype"] = dtype
        if in_region:
            response["in_region"] = True
    except Rejected as e:
        response.update(status="rejected", message=str(e))
        if e.reason:
            response["reason"] = e.reason
    except Unsupported as e:
        response.update(status="unsupported", message=str(e))
    except Failed as e:
        response.update(status="error", message=str(e))
    except Exception as e:  # noqa: BLE001  a bad request or file: say what, keep serving
        response.update(status="error", message=message(e))
    global _compilations
    if _compilations:
        response["compilations"] = _compilations
        _compilations = 0
    return response
