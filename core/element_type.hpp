// Element types: the closed set of dtypes the suite knows, with their storage types.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/half_float.hpp"

namespace core {

enum class ElementType : std::uint8_t {
    boolean,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    f16,
    bf16,
    f32,
    f64,
};

enum class Kind : std::uint8_t { boolean, signed_integer, unsigned_integer, floating };

struct ElementTypeInfo {
    ElementType type;
    std::string_view name;
    std::size_t size;
    Kind kind;
};

// The one list of element types; every loop over dtypes iterates this table.
inline constexpr std::array<ElementTypeInfo, 13> kElementTypes{{
    {ElementType::boolean, "boolean", 1, Kind::boolean},
    {ElementType::i8, "i8", 1, Kind::signed_integer},
    {ElementType::i16, "i16", 2, Kind::signed_integer},
    {ElementType::i32, "i32", 4, Kind::signed_integer},
    {ElementType::i64, "i64", 8, Kind::signed_integer},
    {ElementType::u8, "u8", 1, Kind::unsigned_integer},
    {ElementType::u16, "u16", 2, Kind::unsigned_integer},
    {ElementType::u32, "u32", 4, Kind::unsigned_integer},
    {ElementType::u64, "u64", 8, Kind::unsigned_integer},
    {ElementType::f16, "f16", 2, Kind::floating},
    {ElementType::bf16, "bf16", 2, Kind::floating},
    {ElementType::f32, "f32", 4, Kind::floating},
    {ElementType::f64, "f64", 8, Kind::floating},
}};

constexpr const ElementTypeInfo& info(ElementType t) {
    return kElementTypes[static_cast<std::size_t>(t)];
}
constexpr std::string_view name(ElementType t) {
    return info(t).name;
}
constexpr std::size_t byte_size(ElementType t) {
    return info(t).size;
}
constexpr bool is_integer(ElementType t) {
    return info(t).kind == Kind::signed_integer || info(t).kind == Kind::unsigned_integer;
}
constexpr bool is_floating(ElementType t) {
    return info(t).kind == Kind::floating;
}

// "f16 f32 f64": the names joined by spaces.
std::string to_string(const std::vector<ElementType>& types);

// The type with exactly this suite name ("i32", "bf16", "boolean"), as protocols and ABIs spell
// it; nullopt for anything else.
std::optional<ElementType> element_type_named(std::string_view name);

// Accepts the suite's names (i32, f16, bf16, ...) and the common long forms
// (int32, float16, bfloat16, float, double, uint8, bool).
std::optional<ElementType> parse_element_type(std::string_view text);

// Storage type of each element type.
template <ElementType T>
struct StorageOf;
template <>
struct StorageOf<ElementType::boolean> {
    using type = bool;
};
template <>
struct StorageOf<ElementType::i8> {
    using type = std::int8_t;
};
template <>
struct StorageOf<ElementType::i16> {
    using type = std::int16_t;
};
template <>
struct StorageOf<ElementType::i32> {
    using type = std::int32_t;
};
template <>
struct StorageOf<ElementType::i64> {
    using type = std::int64_t;
};
template <>
struct StorageOf<ElementType::u8> {
    using type = std::uint8_t;
};
template <>
struct StorageOf<ElementType::u16> {
    using type = std::uint16_t;
};
template <>
struct StorageOf<ElementType::u32> {
    using type = std::uint32_t;
};
template <>
struct StorageOf<ElementType::u64> {
    using type = std::uint64_t;
};
template <>
struct StorageOf<ElementType::f16> {
    using type = Half;
};
template <>
struct StorageOf<ElementType::bf16> {
    using type = BFloat16;
};
template <>
struct StorageOf<ElementType::f32> {
    using type = float;
};
template <>
struct StorageOf<ElementType::f64> {
    using type = double;
};

template <ElementType T>
using Storage = typename StorageOf<T>::type;

template <ElementType T>
struct TypeTag {
    static constexpr ElementType value = T;
    using type = Storage<T>;
};

// Calls f(TypeTag<T>{}) for the runtime element type t.
template <class F>
decltype(auto) dispatch(ElementType t, F&& f) {
    switch (t) {
        case ElementType::boolean:
            return f(TypeTag<ElementType::boolean>{});
        case ElementType::i8:
            return f(TypeTag<ElementType::i8>{});
        case ElementType::i16:
            return f(TypeTag<ElementType::i16>{});
        case ElementType::i32:
            return f(TypeTag<ElementType::i32>{});
        case ElementType::i64:
            return f(TypeTag<ElementType::i64>{});
        case ElementType::u8:
            return f(TypeTag<ElementType::u8>{});
        case ElementType::u16:
            return f(TypeTag<ElementType::u16>{});
        case ElementType::u32:
            return f(TypeTag<ElementType::u32>{});
        case ElementType::u64:
            return f(TypeTag<ElementType::u64>{});
        case ElementType::f16:
            return f(TypeTag<ElementType::f16>{});
        case ElementType::bf16:
            return f(TypeTag<ElementType::bf16>{});
        case ElementType::f32:
            return f(TypeTag<ElementType::f32>{});
        case ElementType::f64:
            return f(TypeTag<ElementType::f64>{});
    }
    __builtin_unreachable();
}

}  // namespace core
