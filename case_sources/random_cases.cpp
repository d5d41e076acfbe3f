#include "case_sources/random_cases.hpp"

#include <stdexcept>

#include "generators/shape_generators.hpp"

namespace case_sources {
namespace {

using generators::Combination;

std::string rounding_part(const Combination& c) {
    if (!c.pythondiv) return "";
    return *c.pythondiv ? ":floor" : ":trunc";
}

// The id without seed and n: "onnx.Mul-7:f32:numpy".
std::string combination_part(const Combination& c) {
    return c.op->id() + ":" + std::string(core::name(c.type)) + ":" +
           std::string(core::name(c.rule)) + rounding_part(c);
}

const Combination* combination_named(std::string_view text) {
    for (const Combination& c : generators::all_combinations())
        if (combination_part(c) == text) return &c;
    return nullptr;
}

// splitmix64: a seed per (combination, seed, n) that does not depend on the order of cases.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::uint64_t stream_seed(const RandomCaseKey& key) {
    std::uint64_t h = mix(key.seed);
    for (char ch : combination_part(*key.combination))
        h = mix(h ^ static_cast<unsigned char>(ch));
    return mix(h ^ static_cast<std::uint64_t>(key.n));
}

std::uint64_t parse_number(std::string_view text, std::string_view what) {
    std::size_t used = 0;
    const std::string s(text);
    try {
        const unsigned long long v = std::stoull(s, &used);
        if (used == s.size() && !s.empty() && s[0] != '-') return v;
    } catch (const std::exception&) {
    }
    throw std::invalid_argument("random case id: " + std::string(what) + " '" + s +
                                "' is not a non-negative integer");
}

std::vector<std::size_t> parse_path(std::string_view text) {
    std::vector<std::size_t> path;
    while (!text.empty()) {
        const std::size_t dot = text.find('.');
        path.push_back(parse_number(text.substr(0, dot), "shrink step"));
        text = dot == std::string_view::npos ? "" : text.substr(dot + 1);
    }
    return path;
}

}  // namespace

std::string random_case_id(const RandomCaseKey& key) {
    std::string id = "random:" + combination_part(*key.combination) +
                     ":seed=" + std::to_string(key.seed) + ":n=" + std::to_string(key.n);
    if (key.shrink_path.empty()) return id;
    id += ":shrink=";
    for (std::size_t i = 0; i < key.shrink_path.size(); ++i)
        id += (i ? "." : "") + std::to_string(key.shrink_path[i]);
    return id;
}

std::optional<RandomCaseKey> parse_random_case_id(std::string_view id) {
    if (!id.starts_with("random:")) return std::nullopt;
    const std::size_t seed_at = id.find(":seed=");
    if (seed_at == std::string_view::npos)
        throw std::invalid_argument("random case id without ':seed=': " + std::string(id));
    RandomCaseKey key;
    const std::string_view head = id.substr(7, seed_at - 7);
    key.combination = combination_named(head);
    if (!key.combination)
        throw std::invalid_argument("random case id: no combination '" + std::string(head) +
                                    "' (op:dtype:rule[:floor|trunc])");
    std::string_view rest = id.substr(seed_at + 6);
    const std::size_t n_at = rest.find(":n=");
    if (n_at == std::string_view::npos)
        throw std::invalid_argument("random case id without ':n=': " + std::string(id));
    key.seed = parse_number(rest.substr(0, n_at), "seed");
    rest = rest.substr(n_at + 3);
    const std::size_t shrink_at = rest.find(":shrink=");
    key.n = static_cast<std::int64_t>(parse_number(rest.substr(0, shrink_at), "n"));
    if (shrink_at != std::string_view::npos)
        key.shrink_path = parse_path(rest.substr(shrink_at + 8));
    return key;
}

rc::Shrinkable<generators::Case> random_case_tree(const RandomCaseKey& key) {
    const Combination& c = *key.combination;
    const auto shapes = generators::scaled_shapes(c.rule, generators::compatible_shapes(c.rule),
                                                  kMaxRandomElements);
    return generators::case_of(c, shapes)(rc::Random(stream_seed(key)), rc::kNominalSize);
}

rc::Shrinkable<generators::Case> random_case_node(const RandomCaseKey& key) {
    rc::Shrinkable<generators::Case> node = random_case_tree(key);
    for (std::size_t step : key.shrink_path) {
        auto shrinks = node.shrinks();
        for (std::size_t i = 0; i < step; ++i)
            if (!shrinks.next()) break;
        auto next = shrinks.next();
        if (!next)
            throw std::invalid_argument(random_case_id(key) +
                                        ": the shrink path leaves the generator's tree");
        node = std::move(*next);
    }
    return node;
}

generators::Case random_case(const RandomCaseKey& key) {
    return random_case_node(key).value();
}

core::CaseRecord case_data(const generators::Case& c) {
    return c;  // the record, without how it was generated
}

std::vector<PlannedCase> plan_random_cases(std::uint64_t seed, int count,
                                           const std::function<bool(const PlannedCase&)>& claimed) {
    std::vector<PlannedCase> out;
    for (const Combination& c : generators::all_combinations()) {
        for (std::int64_t n = 0; n < count; ++n) {
            RandomCaseKey key{&c, seed, n, {}};
            PlannedCase p{random_case_id(key),
                          "random",
                          c.op,
                          c.type,
                          true,
                          [key] { return case_data(random_case(key)); }};
            const bool keep_going = claimed(p);
            out.push_back(std::move(p));
            if (!keep_going) break;
        }
    }
    return out;
}

}  // namespace case_sources
