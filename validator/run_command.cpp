// `run`: every planned case through one backend (runner/case_runner.hpp), or the rest of a killed
// run (runner/resume.hpp).
#include "runner/adapter_files.hpp"
#include "runner/case_runner.hpp"
#include "runner/resume.hpp"
#include "runner/run_config.hpp"
#include "validator/commands.hpp"

namespace validator {

int run_run(const runner::RunOptions& given) {
    if (!given.resume.empty()) return runner::resume_run(given);  // the files its run line names
    runner::RunOptions o = given;
    runner::apply_adapter_files(o);  // before the one parse: the files are options too
    return runner::start_run(runner::run_config(o));
}

}  // namespace validator
