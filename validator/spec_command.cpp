// `spec`: run the spec cases through the reference and count passes and failures.
#include <iostream>
#include <set>

#include "reference/run.hpp"
#include "spec_check/spec_check.hpp"
#include "validator/commands.hpp"

namespace validator {
namespace {

void print_outcome(const spec_cases::SpecCase& c, const spec_check::CaseOutcome& outcome) {
    std::cout << (outcome.passed() ? "PASS " : "FAIL ") << c.name << "  ["
              << spec_cases::name(c.category) << "; " << outcome.checks << " checks]\n";
    if (outcome.passed()) return;
    std::cout << "     source: " << c.source << "\n"
              << "     replay: eltwise-validate spec --case " << c.name << "\n";
    for (const auto& f : outcome.failures)
        std::cout << "     " << f.label << ": " << f.message << "\n";
}

}  // namespace

int run_spec(const SpecOptions& options) {
    const std::vector<spec_cases::SpecCase> cases = spec_cases::all_spec_cases();
    if (options.list_names) {
        for (const auto& c : cases)
            std::cout << c.name << "\n";
        return 0;
    }
    std::set<std::string> wanted(options.cases.begin(), options.cases.end());
    for (const auto& c : cases)
        wanted.erase(c.name);
    if (!wanted.empty()) {
        std::cerr << "eltwise-validate spec: no case named '" << *wanted.begin()
                  << "' (see `eltwise-validate spec --list`)\n";
        return kUsageError;
    }
    int passed = 0, failed = 0;
    for (const auto& c : cases) {
        if (!options.cases.empty() &&
            std::find(options.cases.begin(), options.cases.end(), c.name) == options.cases.end())
            continue;
        const auto outcome =
            spec_check::check_spec_case(c, reference::run, /*reports_undefined=*/true);
        (outcome.passed() ? passed : failed)++;
        if (!outcome.passed() || options.verbose || !options.cases.empty())
            print_outcome(c, outcome);
    }
    std::cout << "spec: " << passed << " passed, " << failed << " failed\n";
    return failed == 0 ? 0 : 1;
}

}  // namespace validator
