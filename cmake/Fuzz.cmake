# libFuzzer targets (spec/fuzz), included by CMakeLists.txt when LTENSOR_FUZZ=ON (needs clang).
# The core and the binding are compiled a second time, instrumented for coverage
# (-fsanitize=fuzzer-no-link) and checked by AddressSanitizer and UBSan; only the fuzz
# programs link libFuzzer's main. `make fuzz` builds and runs them (see spec/fuzz/README.md).
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "LTENSOR_FUZZ needs clang for libFuzzer (configure with CC=clang); "
                      "${CMAKE_C_COMPILER_ID} was found")
endif()
if(NOT LUA_LIBRARY)
  message(FATAL_ERROR "LTENSOR_FUZZ needs the Lua 5.4 library (liblua5.4-dev)")
endif()
# clang's -Wcast-align warns on every char* -> T* cast, even where the target does not care
# about alignment (gcc's warns only on strict-alignment targets): off, as with gcc. And the
# instrumentation keeps loops that ask to be vectorized (LT_IVDEP) from being vectorized,
# which clang reports as -Wpass-failed: not a problem here.
set(LT_FUZZ_WARNINGS ${LT_WARNINGS} -Wno-cast-align -Wno-pass-failed)
set(LT_FUZZ_SAN -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_library(ltensor_fuzz_core OBJECT ${LT_CORE_SOURCES})
add_library(ltensor_fuzz_lua OBJECT ${LT_LUA_SOURCES})
target_include_directories(ltensor_fuzz_core PUBLIC ${LT_CORE_INCLUDES})
target_include_directories(ltensor_fuzz_lua PUBLIC ${LT_BINDING_INCLUDES})
if(LT_BLAS_NAME) # src/core/ops/lt_blas.c is in LT_CORE_SOURCES
  target_include_directories(ltensor_fuzz_core PRIVATE ${LT_CBLAS_INCLUDE})
endif()
foreach(_t ltensor_fuzz_core ltensor_fuzz_lua)
  target_compile_options(${_t} PRIVATE ${LT_FUZZ_WARNINGS} -fsanitize=fuzzer-no-link
                         ${LT_FUZZ_SAN})
endforeach()
foreach(_f dlpack_import index bytes npy_header zip_dir safetensors_header png jpeg)
  add_executable(fuzz_${_f} spec/fuzz/fuzz_${_f}.c $<TARGET_OBJECTS:ltensor_fuzz_core>
                 $<TARGET_OBJECTS:ltensor_fuzz_lua>)
  target_include_directories(fuzz_${_f} PRIVATE ${LT_BINDING_INCLUDES})
  target_compile_options(fuzz_${_f} PRIVATE ${LT_FUZZ_WARNINGS} -fsanitize=fuzzer
                         ${LT_FUZZ_SAN})
  target_link_options(fuzz_${_f} PRIVATE -fsanitize=fuzzer ${LT_FUZZ_SAN})
  target_link_libraries(fuzz_${_f} PRIVATE ${LUA_LIBRARY} m ${CMAKE_DL_LIBS} ${LT_ZLIB})
  set_target_properties(fuzz_${_f} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                        ${CMAKE_BINARY_DIR}/fuzz)
endforeach()
