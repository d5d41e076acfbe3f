# add_python_tests(SCRIPT <file.py> PREFIX <name> LABELS <label>... [TIMEOUT <s>]
#                  [FIXTURES_REQUIRED <fixture>] [INTERPRETER <python>] ENVIRONMENT <K=V>...)
# One ctest test <PREFIX>.<Class>.<test_x> per `class Class(Harness)` / `def test_x` of a
# unittest script, read from the file so that no list of tests is kept twice.
function(add_python_tests)
    cmake_parse_arguments(ARG "" "SCRIPT;PREFIX;TIMEOUT;FIXTURES_REQUIRED;INTERPRETER"
                          "LABELS;ENVIRONMENT" ${ARGN})
    if(NOT ARG_INTERPRETER)
        set(ARG_INTERPRETER ${ELTWISE_PYTHON})  # Debian's python3
    endif()
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 900)
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ARG_SCRIPT})
    file(STRINGS ${ARG_SCRIPT} lines REGEX "^class [A-Za-z]+\\(Harness\\)|^    def test_")
    foreach(line IN LISTS lines)
        if(line MATCHES "^class ([A-Za-z]+)")
            set(class ${CMAKE_MATCH_1})
        elseif(line MATCHES "def (test_[a-z0-9_]+)")
            set(name ${ARG_PREFIX}.${class}.${CMAKE_MATCH_1})
            add_test(NAME ${name}
                     COMMAND ${ARG_INTERPRETER} ${ARG_SCRIPT} ${class}.${CMAKE_MATCH_1})
            set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT}
                                 ENVIRONMENT "${ARG_ENVIRONMENT}")
            if(ARG_FIXTURES_REQUIRED)
                set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED ${ARG_FIXTURES_REQUIRED})
            endif()
        endif()
    endforeach()
endfunction()
