# Run by ctest (TEST_INCLUDE_FILES) with EXHAUSTIVE_16BIT_EXECUTABLE, _SHARDS and _TIMEOUT set:
# registers exhaustive.<isa>.<function>.<shard>of<S> for every kernel set (EXHAUSTIVE_16BIT_ISAS)
# and every function that `--list` prints; an ISA the CPU lacks is reported as skipped.
set(_labels "exhaustive;exhaustive-long")
if(NOT EXISTS "${EXHAUSTIVE_16BIT_EXECUTABLE}")
    add_test(exhaustive.NOT_BUILT "${EXHAUSTIVE_16BIT_EXECUTABLE}" --list)
    set_tests_properties(exhaustive.NOT_BUILT PROPERTIES LABELS "${_labels}")
    return()
endif()
execute_process(COMMAND "${EXHAUSTIVE_16BIT_EXECUTABLE}" --list
    OUTPUT_VARIABLE _functions RESULT_VARIABLE _status ERROR_QUIET)
if(NOT _status EQUAL 0)
    # A function missing from the op table: this test fails and prints which.
    add_test(exhaustive.function_list "${EXHAUSTIVE_16BIT_EXECUTABLE}" --list)
    set_tests_properties(exhaustive.function_list PROPERTIES LABELS "${_labels}")
endif()
string(REGEX MATCHALL "[^\n]+" _functions "${_functions}")
foreach(_isa IN LISTS EXHAUSTIVE_16BIT_ISAS)
    foreach(_function IN LISTS _functions)
        foreach(_shard RANGE 1 ${EXHAUSTIVE_16BIT_SHARDS})
            set(_name "exhaustive.${_isa}.${_function}.${_shard}of${EXHAUSTIVE_16BIT_SHARDS}")
            add_test("${_name}" "${EXHAUSTIVE_16BIT_EXECUTABLE}" "${_function}" ${_shard}
                     ${EXHAUSTIVE_16BIT_SHARDS})
            set_tests_properties("${_name}" PROPERTIES
                LABELS "${_labels};isa-${_isa}" TIMEOUT ${EXHAUSTIVE_16BIT_TIMEOUT}
                ENVIRONMENT "ELTWISE_ISA=${_isa}" SKIP_RETURN_CODE 77)
        endforeach()
    endforeach()
endforeach()
