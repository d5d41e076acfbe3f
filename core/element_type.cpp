#include "core/element_type.hpp"

namespace core {

std::string to_string(const std::vector<ElementType>& types) {
    std::string out;
    for (ElementType t : types) {
        if (!out.empty()) out += ' ';
        out += name(t);
    }
    return out;
}

std::optional<ElementType> element_type_named(std::string_view name) {
    for (const auto& t : kElementTypes)
        if (t.name == name) return t.type;
    return std::nullopt;
}

std::optional<ElementType> parse_element_type(std::string_view text) {
    struct Alias {
        std::string_view name;
        ElementType type;
    };
    static constexpr Alias kAliases[] = {
        {"bool", ElementType::boolean},  {"int8", ElementType::i8},
        {"int16", ElementType::i16},     {"int32", ElementType::i32},
        {"int64", ElementType::i64},     {"uint8", ElementType::u8},
        {"uint16", ElementType::u16},    {"uint32", ElementType::u32},
        {"uint64", ElementType::u64},    {"float16", ElementType::f16},
        {"bfloat16", ElementType::bf16}, {"float32", ElementType::f32},
        {"float", ElementType::f32},     {"float64", ElementType::f64},
        {"double", ElementType::f64},
    };
    if (auto t = element_type_named(text)) return t;
    for (const auto& a : kAliases)
        if (a.name == text) return a.type;
    return std::nullopt;
}

}  // namespace core
