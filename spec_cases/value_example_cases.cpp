// Values written in the specs (data/value_examples.txt), checked exactly.
#include <map>

#include "spec_cases/case_builders.hpp"
#include "spec_cases/table_text.hpp"

namespace spec_cases {
namespace {

constexpr std::string_view kValueTable = "value_examples.txt";

// "openvino.Divide-1" names one version; "onnx.Mul" every version of that op.
std::vector<const core::OpVersion*> ops_named(const TableRow& row, core::ElementType type) {
    std::vector<const core::OpVersion*> out;
    const std::string& wanted = row.fields[1];
    for (const core::OpVersion& op : core::op_versions()) {
        const std::string family = std::string(op.domain) + "." + std::string(op.name);
        if ((wanted == op.id() || wanted == family) && op.allows(type)) out.push_back(&op);
    }
    if (out.empty())
        fail(row, "no op version '" + wanted + "' allows " + std::string(core::name(type)));
    return out;
}

std::vector<core::CaseRecord> row_checks(const TableRow& row) {
    const auto type = core::parse_element_type(row.fields[3]);
    if (!type) fail(row, "unknown element type '" + row.fields[3] + "'");
    std::vector<core::CaseRecord> checks;
    for (const core::OpVersion* op : ops_named(row, *type)) {
        core::CaseRecord c{
            op->id() + " " + row.fields[3] + (row.fields[2].empty() ? "" : " " + row.fields[2]), op,
            parse_attributes(row.fields[2]), parse_shaped_values(*type, row.fields[4]),
            parse_shaped_values(*type, row.fields[5])};
        c.expected.output = core::OpOutput{parse_shaped_values(*type, row.fields[6]), {}};
        checks.push_back(std::move(c));
    }
    return checks;
}

}  // namespace

std::vector<SpecCase> value_example_cases() {
    std::map<std::string, std::vector<TableRow>> by_case;
    std::vector<std::string> order;
    for (TableRow& row : read_table(kValueTable, 7)) {
        if (!by_case.count(row.fields[0])) order.push_back(row.fields[0]);
        by_case[row.fields[0]].push_back(std::move(row));
    }
    std::vector<SpecCase> cases;
    for (const std::string& name : order) {
        const std::vector<TableRow> rows = by_case[name];
        cases.push_back(
            {name, "spec value example (" + rows.front().where + ")", Category::spec_value, [rows] {
                 std::vector<core::CaseRecord> checks;
                 for (const TableRow& row : rows)
                     for (core::CaseRecord& c : row_checks(row))
                         checks.push_back(std::move(c));
                 return checks;
             }});
    }
    return cases;
}

}  // namespace spec_cases
