// Hand-computed edge-value tables (data/edge_values.txt): one case per category and dtype, each
// row checked on every op version and rounding mode its arithmetic names.
#include <map>

#include "core/element_text.hpp"
#include "spec_cases/case_builders.hpp"
#include "spec_cases/table_text.hpp"

namespace spec_cases {
namespace {

constexpr std::string_view kEdgeTable = "edge_values.txt";

enum class Field { category, arithmetic, dtypes, a, b, expected };
const std::string& field(const TableRow& row, Field f) {
    return row.fields[static_cast<int>(f)];
}

std::vector<core::ElementType> dtypes_of(const TableRow& row) {
    std::vector<core::ElementType> out;
    for (const std::string& word : split(field(row, Field::dtypes), ' ')) {
        if (word.empty()) continue;
        bool group = false;
        for (const auto& t : core::kElementTypes) {
            const bool in_group = (word == "float" && t.kind == core::Kind::floating) ||
                                  (word == "signed" && t.kind == core::Kind::signed_integer) ||
                                  (word == "unsigned" && t.kind == core::Kind::unsigned_integer) ||
                                  (word == "int" && core::is_integer(t.type));
            if (in_group) out.push_back(t.type);
            group = group || in_group;
        }
        if (group) continue;
        const auto t = core::parse_element_type(word);
        if (!t) fail(row, "unknown element type or group '" + word + "'");
        out.push_back(*t);
    }
    return out;
}

// The versions and m_pythondiv settings each arithmetic keyword is checked on.
std::vector<RuleBinding> bindings(const TableRow& row, core::ElementType type) {
    const std::string& kind = field(row, Field::arithmetic);  // mul, div, div_trunc, div_floor
    const bool want_mul = kind == "mul";
    std::optional<core::IntegerRounding> only;  // div_ROUNDING: that rounding; div: every one
    if (kind.starts_with("div_")) only = core::integer_rounding_named(kind.substr(4));
    if (!want_mul && kind != "div" && !only) fail(row, "unknown arithmetic '" + kind + "'");
    std::vector<RuleBinding> out;
    for (const core::OpVersion& op : core::op_versions()) {
        if (!op.allows(type)) continue;
        if (op.arithmetic == core::Arithmetic::multiply) {
            if (want_mul) out.push_back({&op, {}});
            continue;
        }
        if (want_mul) continue;
        for (core::IntegerRounding r : core::kIntegerRoundings)
            if (!only || *only == r)
                if (const auto attributes = core::rounding_attributes(op, r))
                    out.push_back({&op, *attributes});
    }
    return out;
}

void set_exact(core::Tensor& t, std::int64_t i, const TableRow& row, const std::string& text) {
    try {
        if (!core::parse_element(t, i, text))
            fail(row, "'" + text + "' is not exact in " + std::string(core::name(t.type)));
    } catch (const core::Error& e) {
        fail(row, e.what());
    }
}

// All rows of one arithmetic keyword, as one 1-D check per binding.
std::vector<core::CaseRecord> checks_for(const std::vector<TableRow>& rows,
                                         core::ElementType type) {
    const auto n = static_cast<std::int64_t>(rows.size());
    core::Tensor a = core::Tensor::zeros(type, {n}), b = a;
    core::OpOutput expected{a, {}};
    for (std::int64_t i = 0; i < n; ++i) {
        const TableRow& row = rows[static_cast<std::size_t>(i)];
        set_exact(a, i, row, field(row, Field::a));
        set_exact(b, i, row, field(row, Field::b));
        if (field(row, Field::expected) == "undefined")
            expected.undefined.push_back(i);
        else
            set_exact(expected.value, i, row, field(row, Field::expected));
    }
    std::vector<core::CaseRecord> checks;
    for (const RuleBinding& binding : bindings(rows.front(), type)) {
        std::string label = binding.op->id() + " " + std::string(core::name(type));
        for (const auto& [k, v] : binding.attributes)
            label += " " + k + "=" + v;
        checks.push_back({label, binding.op, binding.attributes, a, b});
        checks.back().expected.output = expected;
    }
    return checks;
}

std::vector<core::CaseRecord> case_checks(const std::vector<TableRow>& rows,
                                          core::ElementType type) {
    std::map<std::string, std::vector<TableRow>> by_arithmetic;
    for (const TableRow& row : rows)
        by_arithmetic[field(row, Field::arithmetic)].push_back(row);
    std::vector<core::CaseRecord> checks;
    for (const auto& [kind, group] : by_arithmetic)
        for (core::CaseRecord& c : checks_for(group, type))
            checks.push_back(std::move(c));
    return checks;
}

Category category_of(const std::string& category) {
    // docs/SEMANTICS.md section 2: overflow results follow the wrap convention, not spec text.
    if (category == "integer_overflow_wrap" || category == "int_min_div_minus_one")
        return Category::wrap_convention;
    return Category::spec_value;
}

}  // namespace

std::vector<SpecCase> edge_value_cases() {
    // Ordered by category as first seen, then by dtype in table order.
    std::vector<std::string> categories;
    std::map<std::string, std::map<core::ElementType, std::vector<TableRow>>> rows;
    for (const TableRow& row : read_table(kEdgeTable, 6)) {
        const std::string& category = field(row, Field::category);
        if (!rows.count(category)) categories.push_back(category);
        for (core::ElementType t : dtypes_of(row))
            rows[category][t].push_back(row);
    }
    std::vector<SpecCase> cases;
    for (const std::string& category : categories)
        for (const auto& [type, group] : rows[category])
            cases.push_back({"edge." + category + "." + std::string(core::name(type)),
                             "hand-computed edge values (" + group.front().where + ")",
                             category_of(category),
                             [group = group, type = type] { return case_checks(group, type); }});
    return cases;
}

}  // namespace spec_cases
