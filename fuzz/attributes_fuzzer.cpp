// Attribute values as the case tables and IR XML spell them ("broadcast=1 axis=-2
// auto_broadcast=numpy m_pythondiv=false"), resolved against every op version of the table.
#include "core/error.hpp"
#include "core/op_config.hpp"
#include "spec_cases/table_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    core::AttributeMap attributes;
    try {
        attributes = spec_cases::parse_attributes(text);
    } catch (const core::Error&) {
        return 0;
    }
    for (const core::OpVersion& op : core::op_versions()) {
        try {
            core::resolve_attributes(op, attributes);
        } catch (const core::Error&) {
        }
    }
    return 0;
}
