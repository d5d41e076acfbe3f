#include "runner/results_lines.hpp"

#include "core/op_table.hpp"

namespace runner {

results::CaseLine case_line(const CaseLineParts& r) {
    const case_sources::PlannedCase& p = *r.planned;
    results::CaseLine line;
    line.id = p.id;
    line.source = p.source;
    line.op = p.op ? p.op->id() : "";
    line.dtype = core::name(p.dtype);
    line.valid = r.data ? r.data->valid : p.valid;
    line.graph_form = p.graph_form;
    line.seconds = r.result->seconds;
    line.verdict = r.result->verdict;
    line.baseline = r.result->baseline;
    if (r.data) {
        line.shapes = {r.data->a.shape, r.data->b.shape};
        line.attributes = r.data->attributes;
        if (r.data->b.type != r.data->a.type) line.dtype_b = core::name(r.data->b.type);
        line.note = r.data->note;
    }
    if (r.minimal)
        line.minimal = results::MinimalCase{r.minimal->id,
                                            {r.minimal->data.a.shape, r.minimal->data.b.shape},
                                            r.minimal->data.attributes,
                                            r.minimal->tries,
                                            r.minimal->result.verdict,
                                            r.minimal->seconds,
                                            r.minimal->cut_short};
    line.files = r.files;
    line.undefined_refused = r.result->undefined_refused;
    line.compilations = r.result->compilations;
    return line;
}

}  // namespace runner
