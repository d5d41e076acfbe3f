// `triage RESULTS --draft FILE`, and `run --draft-profile FILE` at the end of its run: the
// deviations of a results file drafted into a profile (triage/draft_profile.hpp).
#include <iostream>
#include <span>

#include "io/atomic_file.hpp"
#include "profiles/backend_profile.hpp"
#include "triage/draft_profile.hpp"
#include "validator/commands.hpp"

namespace validator {

int run_triage(const TriageOptions& options) {
    const triage::Draft draft = triage::triage_results(options.results);
    const std::string toml = triage::draft_toml(draft);
    // What is written must be a profile the judge accepts as it is.
    profiles::parse_profile(toml, options.draft);
    const std::span<const std::byte> bytes = std::as_bytes(std::span(toml));
    io::write_file_atomically(options.draft, std::span(&bytes, 1));
    std::cout << triage::triage_summary(draft) << "draft profile: " << options.draft << "\n";
    return 0;
}

int draft_after_run(const std::string& out_dir, const std::string& draft, int run_exit) {
    if (draft.empty()) return run_exit;
    const int code = run_triage({out_dir + "/results.jsonl", draft});
    return code == 0 ? run_exit : code;
}

}  // namespace validator
