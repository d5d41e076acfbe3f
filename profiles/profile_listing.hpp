// A profile as the judge reads it (`eltwise-validate profile`): each entry's finding, its scope
// resolved to the op versions and element types it covers, its platform condition, and its
// behaviours or status, with the file and line it comes from; the files the profile includes.
#pragma once

#include <string>

#include "profiles/backend_profile.hpp"

namespace profiles {

// The op versions an entry's `ops` globs match, in the op table's order, each with the element
// types of its own that the entry covers: those of `dtypes` (all when absent) that the op
// version allows and, for a value entry, that its behaviours change (an inert type is not in
// scope, active_entries). An op version left with no type is listed with none.
std::string scope_text(const Entry& e);

std::string profile_listing(const Profile& p);

}  // namespace profiles
