#include "bench/bench_row.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace bench {
namespace {

core::Shape shape_of(const nlohmann::json& j) {
    core::Shape s;
    for (const auto& d : j)
        s.push_back(d.get<std::int64_t>());
    return s;
}

Layout layout_of(const std::string& text) {
    if (text == "same") return Layout::same;
    if (text == "scalar") return Layout::scalar;
    if (text == "row") return Layout::row;
    if (text == "col") return Layout::col;
    if (text == "outer") return Layout::outer;
    throw std::runtime_error("unknown layout '" + text + "'");
}

Rounding rounding_of(const std::string& text) {
    if (text == "floor") return Rounding::floor;
    if (text == "trunc") return Rounding::trunc;
    throw std::runtime_error("unknown rounding '" + text + "'");
}

void read_range(const nlohmann::json& j, const char* key, std::int64_t (&range)[2]) {
    range[0] = j.at(key).at(0).get<std::int64_t>();
    range[1] = j.at(key).at(1).get<std::int64_t>();
    if (range[0] > range[1]) throw std::runtime_error(std::string("empty range ") + key);
}

IntegerInputs integer_inputs(const nlohmann::json& doc, const std::string& dtype) {
    const nlohmann::json& j = doc.at("integer_inputs").at(dtype);
    IntegerInputs in;
    read_range(j, "multiply", in.multiply);
    read_range(j, "dividend", in.dividend);
    read_range(j, "divisor", in.divisor);
    if (in.divisor[0] < 1) throw std::runtime_error("a divisor range must start at 1 or above");
    return in;
}

}  // namespace

const core::OpVersion& Row::op() const {
    const char* id =
        arithmetic == core::Arithmetic::multiply ? "openvino.Multiply-1" : "openvino.Divide-1";
    const core::OpVersion* v = core::find_op_version(id);
    if (v == nullptr) throw std::logic_error(std::string("op table lacks ") + id);
    return *v;
}

core::AttributeMap Row::attributes() const {
    core::AttributeMap m{{"auto_broadcast", broadcast}};
    if (broadcast == "pdpd") m["auto_broadcast_axis"] = std::to_string(axis);
    if (rounding != Rounding::none)
        m["m_pythondiv"] = rounding == Rounding::floor ? "true" : "false";
    return m;
}

std::vector<Row> load_rows(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    const nlohmann::json doc = nlohmann::json::parse(in);
    std::vector<Row> rows;
    for (const auto& j : doc.at("rows")) {
        Row r;
        r.id = j.at("id").get<std::string>();
        try {
            const auto op = j.at("op").get<std::string>();
            if (op != "multiply" && op != "divide") throw std::runtime_error("unknown op " + op);
            r.arithmetic = op == "multiply" ? core::Arithmetic::multiply : core::Arithmetic::divide;
            const auto type = core::parse_element_type(j.at("dtype").get<std::string>());
            if (!type) throw std::runtime_error("unknown dtype");
            r.type = *type;
            if (core::is_integer(r.type))
                r.inputs = integer_inputs(doc, j.at("dtype").get<std::string>());
            r.a = shape_of(j.at("a"));
            r.b = shape_of(j.at("b"));
            r.smoke_a = shape_of(j.at("smoke").at("a"));
            r.smoke_b = shape_of(j.at("smoke").at("b"));
            r.layout = layout_of(j.at("layout").get<std::string>());
            if (j.contains("rounding")) r.rounding = rounding_of(j["rounding"].get<std::string>());
            if (j.contains("broadcast")) r.broadcast = j["broadcast"].get<std::string>();
            if (j.contains("axis")) r.axis = j["axis"].get<std::int64_t>();
            if (j.contains("note")) r.note = j["note"].get<std::string>();
        } catch (const std::exception& e) {
            throw std::runtime_error(path.string() + ": row " + r.id + ": " + e.what());
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

}  // namespace bench
