// `profile FILE` / `profile --backend NAME`: a profile as the judge reads it
// (profiles/profile_listing.hpp); with --backend, the adapter's own profile.toml, the one
// `run --backend NAME` applies by default (runner/adapter_files.hpp).
#include <iostream>

#include "profiles/profile_listing.hpp"
#include "runner/adapter_files.hpp"
#include "runner/backend_choice.hpp"
#include "validator/commands.hpp"

namespace validator {

int run_profile(const ProfileOptions& o) {
    std::string path = o.file;
    if (!o.backend.empty()) {
        if (!runner::find_adapter(o.backend)) {
            std::cerr << "eltwise-validate: profile --backend: no adapter '" << o.backend
                      << "' (known: " << runner::backend_names() << ")\n";
            return 2;
        }
        const runner::AdapterFiles own = runner::adapter_files(o.backend);
        if (!own.profile) {
            std::cout << "adapter " << o.backend << " has no profile.toml\n";
            return 0;
        }
        path = *own.profile;
    }
    std::cout << profiles::profile_listing(profiles::read_profile(path));
    return 0;
}

}  // namespace validator
