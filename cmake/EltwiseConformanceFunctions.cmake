# eltwise_add_conformance_tests: the conformance suite as ctest tests of a backend's own project,
# one test per op version of the installed op table. Included by EltwiseConformanceConfig.cmake,
# which sets the paths used here.
#
#   eltwise_add_conformance_tests(NAME <prefix>
#       PLUGIN <target-or-path> [PLUGIN_ARGS <arg>...]  |  COMMAND <command line>
#       [OPS <op version>...] [DTYPES <type>...] [CASES <source>...]
#       [EXPECTED <baseline.txt>] [JUNIT_DIR <dir>] [LABELS <label>...] [TIMEOUT <seconds>]
#       [EXTRA_ARGS <eltwise-validate run option>...])
#
# NAME       test names are <prefix>.<op version>, e.g. mylib.onnx.Div-14.
# PLUGIN     a shared library implementing eltwise_backend.h (a target of this project, or a
#            path; relative to the current source directory), run as
#            `eltwise-backend-host <plugin> [PLUGIN_ARGS...]`. Build it before running ctest.
# COMMAND    any other backend speaking eltwise-backend/1: one element is a whole command line
#            (quoted as in a shell), several are one word each.
# OPS        op version ids as `eltwise-validate list` prints them; default: every one of the
#            table. Give the ones the backend claims: for the others every case is UNSUPPORTED,
#            which passes.
# DTYPES, CASES  `run --dtype`, `run --cases` (default: every source but exhaustive16).
# EXPECTED   known deviations (PATTERN STATUS lines, `run --expected`): a test fails only on a
#            new finding, or on an expected deviation that now passes. Relative paths are taken
#            from the current source directory.
# JUNIT_DIR  write each test's results into <dir>/<test name>/ instead of
#            ${CMAKE_CURRENT_BINARY_DIR}/eltwise-conformance/<test name>/ (each holds
#            junit.xml, report.html, results.jsonl and cases/), for the CI to collect.
# LABELS     ctest labels (default: eltwise-conformance). TIMEOUT: the ctest timeout in seconds.
# EXTRA_ARGS more `eltwise-validate run` options (--count 2, --seed 7, --timeout 30, ...).
#
# A test runs `eltwise-validate run --backend-cmd ... --op <op version> --out <dir>` and passes
# when that exits 0: no findings, or none beyond EXPECTED. On failure its output lists each
# finding with its minimal case and the `eltwise-validate run ... --case <id>` line that replays
# it (`ctest --output-on-failure`).
include_guard(GLOBAL)

# The paths of the package that was found, for calls from any directory.
set_property(GLOBAL PROPERTY ELTWISE_CONFORMANCE_VALIDATE "${EltwiseConformance_VALIDATE}")
set_property(GLOBAL PROPERTY ELTWISE_CONFORMANCE_HOST "${EltwiseConformance_HOST}")
set_property(GLOBAL PROPERTY ELTWISE_CONFORMANCE_OP_TABLE "${EltwiseConformance_OP_TABLE}")

# `word` as one word of a backend command line (split like a shell: single quotes when needed).
function(_eltwise_command_word out word)
    if(word MATCHES "^[A-Za-z0-9/._=+,:@%-]+$")
        set(${out} "${word}" PARENT_SCOPE)
    else()
        string(REPLACE "'" "'\\''" word "${word}")
        set(${out} "'${word}'" PARENT_SCOPE)
    endif()
endfunction()

# The op table's ids and the union of its element types, read once from op_table.json.
function(_eltwise_read_op_table ids_out types_out)
    get_property(ids GLOBAL PROPERTY ELTWISE_CONFORMANCE_OP_IDS)
    get_property(types GLOBAL PROPERTY ELTWISE_CONFORMANCE_DTYPES)
    if(NOT ids)
        get_property(table GLOBAL PROPERTY ELTWISE_CONFORMANCE_OP_TABLE)
        file(READ "${table}" json)
        string(JSON count ERROR_VARIABLE error LENGTH "${json}")
        if(error OR count EQUAL 0)
            message(FATAL_ERROR "eltwise_add_conformance_tests: cannot read ${table}: ${error}")
        endif()
        math(EXPR last "${count} - 1")
        foreach(i RANGE ${last})
            string(JSON id GET "${json}" ${i} id)
            list(APPEND ids "${id}")
            string(JSON type_count LENGTH "${json}" ${i} element_types)
            math(EXPR last_type "${type_count} - 1")
            foreach(t RANGE ${last_type})
                string(JSON type GET "${json}" ${i} element_types ${t})
                list(APPEND types "${type}")
            endforeach()
        endforeach()
        list(REMOVE_DUPLICATES types)
        set_property(GLOBAL PROPERTY ELTWISE_CONFORMANCE_OP_IDS "${ids}")
        set_property(GLOBAL PROPERTY ELTWISE_CONFORMANCE_DTYPES "${types}")
    endif()
    set(${ids_out} "${ids}" PARENT_SCOPE)
    set(${types_out} "${types}" PARENT_SCOPE)
endfunction()

function(eltwise_add_conformance_tests)
    set(where "eltwise_add_conformance_tests")
    cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;PLUGIN;EXPECTED;JUNIT_DIR;TIMEOUT"
                          "PLUGIN_ARGS;COMMAND;OPS;DTYPES;CASES;LABELS;EXTRA_ARGS")
    if(arg_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "${where}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT arg_NAME)
        message(FATAL_ERROR "${where}: NAME is required")
    endif()
    if((arg_PLUGIN AND arg_COMMAND) OR (NOT arg_PLUGIN AND NOT arg_COMMAND))
        message(FATAL_ERROR "${where}(${arg_NAME}): give exactly one of PLUGIN and COMMAND")
    endif()
    if(arg_PLUGIN_ARGS AND NOT arg_PLUGIN)
        message(FATAL_ERROR "${where}(${arg_NAME}): PLUGIN_ARGS needs PLUGIN")
    endif()
    get_property(validate GLOBAL PROPERTY ELTWISE_CONFORMANCE_VALIDATE)
    get_property(host GLOBAL PROPERTY ELTWISE_CONFORMANCE_HOST)
    _eltwise_read_op_table(table_ids table_types)

    # The backend command line.
    if(arg_PLUGIN)
        _eltwise_command_word(command "${host}")
        if(TARGET ${arg_PLUGIN})
            # Known only at generate time: quoted when the build tree's path needs it.
            set(plugin "$<TARGET_FILE:${arg_PLUGIN}>")
            _eltwise_command_word(binary_dir "${CMAKE_BINARY_DIR}")
            if(NOT binary_dir STREQUAL CMAKE_BINARY_DIR)
                set(plugin "'${plugin}'")
            endif()
        else()
            get_filename_component(plugin "${arg_PLUGIN}" ABSOLUTE)
            _eltwise_command_word(plugin "${plugin}")
        endif()
        string(APPEND command " ${plugin}")
        foreach(word IN LISTS arg_PLUGIN_ARGS)
            _eltwise_command_word(word "${word}")
            string(APPEND command " ${word}")
        endforeach()
    else()
        list(LENGTH arg_COMMAND words)
        if(words EQUAL 1)
            set(command "${arg_COMMAND}")
        else()
            set(command "")
            foreach(word IN LISTS arg_COMMAND)
                _eltwise_command_word(word "${word}")
                string(APPEND command "${word} ")
            endforeach()
            string(STRIP "${command}" command)
        endif()
    endif()

    # The op versions: the table's, in its order, filtered by OPS.
    foreach(op IN LISTS arg_OPS)
        if(NOT op IN_LIST table_ids)
            list(JOIN table_ids ", " known)
            message(FATAL_ERROR "${where}(${arg_NAME}): unknown op version '${op}' (known: ${known})")
        endif()
    endforeach()
    foreach(type IN LISTS arg_DTYPES)
        if(NOT type IN_LIST table_types)
            list(JOIN table_types ", " known)
            message(FATAL_ERROR "${where}(${arg_NAME}): unknown element type '${type}' (known: ${known})")
        endif()
    endforeach()

    set(options "")
    if(arg_DTYPES)
        list(JOIN arg_DTYPES "," dtypes)
        list(APPEND options --dtype "${dtypes}")
    endif()
    if(arg_CASES)
        list(JOIN arg_CASES "," cases)
        list(APPEND options --cases "${cases}")
    endif()
    if(arg_EXPECTED)
        get_filename_component(expected "${arg_EXPECTED}" ABSOLUTE)
        if(NOT EXISTS "${expected}")
            message(FATAL_ERROR "${where}(${arg_NAME}): EXPECTED file ${expected} does not exist")
        endif()
        list(APPEND options --expected "${expected}")
    endif()
    if(arg_JUNIT_DIR)
        get_filename_component(results_dir "${arg_JUNIT_DIR}" ABSOLUTE
                               BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    else()
        set(results_dir "${CMAKE_CURRENT_BINARY_DIR}/eltwise-conformance")
    endif()
    set(labels eltwise-conformance)
    if(arg_LABELS)
        set(labels "${arg_LABELS}")
    endif()

    foreach(op IN LISTS table_ids)
        if(arg_OPS AND NOT op IN_LIST arg_OPS)
            continue()
        endif()
        set(test "${arg_NAME}.${op}")
        add_test(NAME "${test}"
                 COMMAND "${validate}" run --backend-cmd "${command}" --op "${op}" ${options}
                         --out "${results_dir}/${test}" ${arg_EXTRA_ARGS})
        set_tests_properties("${test}" PROPERTIES LABELS "${labels}")
        if(arg_TIMEOUT)
            set_tests_properties("${test}" PROPERTIES TIMEOUT "${arg_TIMEOUT}")
        endif()
    endforeach()
endfunction()
