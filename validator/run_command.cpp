// `run`: every planned case through one backend (runner/case_runner.hpp), or the rest of a killed
// run (runner/resume.hpp).
#include "runner/case_runner.hpp"
#include "runner/resume.hpp"
#include "validator/commands.hpp"

namespace validator {

int run_run(const runner::RunOptions& o) {
    return o.resume.empty() ? runner::start_run(o) : runner::resume_run(o);
}

}  // namespace validator
