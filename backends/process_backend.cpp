#include "backends/process_backend.hpp"
