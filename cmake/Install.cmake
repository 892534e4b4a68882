# The install rules (included by CMakeLists.txt once the targets exist).
# The Lua module, for `require "ltensor"` from lua5.4: core.so and the Lua files (LT_LUA_FILES).
install(TARGETS ltensor_module LIBRARY DESTINATION ${LTENSOR_LIBDIR}/ltensor)
foreach(_f ${LT_LUA_FILES}) # lua/ltensor/nn/functional.lua to LUADIR/ltensor/nn
  file(RELATIVE_PATH _rel "${PROJECT_SOURCE_DIR}/lua" "${PROJECT_SOURCE_DIR}/${_f}")
  get_filename_component(_dir "${_rel}" DIRECTORY)
  install(FILES ${_f} DESTINATION ${LTENSOR_LUADIR}/${_dir})
endforeach()
# The LuaLS definitions (never required; not compiled in): the folder a .luarc.json's
# workspace.library names, share/lua/5.4/ltensor/meta (docs/GUIDE.md, "Editor support").
install(DIRECTORY lua/ltensor/meta/ DESTINATION ${LTENSOR_LUADIR}/ltensor/meta
        FILES_MATCHING PATTERN "*.lua")
# The host library: libltensor.a and libltensor.so in lib/, ltensor.h and dlpack.h side by side
# in include/ltensor/, the CMake package (ltensor::ltensor, the static library, and
# ltensor::ltensor_shared) in lib/cmake/ltensor/, and lib/pkgconfig/ltensor.pc (static) and
# ltensor-shared.pc. The rock leaves it out: LuaRocks takes everything in its lib/ for Lua C
# modules.
if(NOT LTENSOR_INSTALL_HOST)
  return()
endif()
get_filename_component(_hostlib "${CMAKE_INSTALL_LIBDIR}" ABSOLUTE BASE_DIR "${CMAKE_INSTALL_PREFIX}")
get_filename_component(_modlib "${LTENSOR_LIBDIR}" ABSOLUTE BASE_DIR "${CMAKE_INSTALL_PREFIX}")
if(_hostlib STREQUAL _modlib)
  message(FATAL_ERROR "The host library and the Lua C modules would share ${_modlib}: set "
                      "LTENSOR_INSTALL_HOST=OFF (as the rockspec does) or another "
                      "CMAKE_INSTALL_LIBDIR")
endif()
install(TARGETS ltensor_static ltensor_shared EXPORT ltensorTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES src/ltensor.h src/dlpack.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ltensor)

# The CMake package: Lua 5.4 is found where the host is built, hinted by where ltensor was
# built (cmake/ltensorConfig.cmake.in).
set(_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/ltensor)
install(EXPORT ltensorTargets NAMESPACE ltensor:: DESTINATION ${_cmakedir})
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ltensorConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
get_filename_component(LT_LUA_LIBDIR "${LUA_LIBRARY}" DIRECTORY)
configure_file(cmake/ltensorConfig.cmake.in ${PROJECT_BINARY_DIR}/ltensorConfig.cmake @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ltensorConfig.cmake
              ${PROJECT_BINARY_DIR}/ltensorConfigVersion.cmake DESTINATION ${_cmakedir})

# ltensor::python (only when Python's embedding library was found): libltensor_python.a,
# ltensor_python.h beside ltensor.h, and its own export file, which ltensorConfig.cmake includes
# when it finds python3-embed where the host is built.
if(TARGET ltensor_python)
  install(TARGETS ltensor_python EXPORT ltensorPythonTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES src/python/ltensor_python.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ltensor)
  install(EXPORT ltensorPythonTargets NAMESPACE ltensor:: DESTINATION ${_cmakedir})
endif()

# ltensor.pc finds the prefix from where it lies (${pcfiledir}), so `cmake --install --prefix`
# moves it too; directories given as absolute paths stay as they are.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(LT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _up "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p") # ../..
  string(REGEX REPLACE "/$" "" _up "${_up}")
  set(LT_PC_PREFIX "\${pcfiledir}/${_up}")
endif()
foreach(_d LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_d}}")
    set(LT_PC_${_d} "${CMAKE_INSTALL_${_d}}")
  else()
    set(LT_PC_${_d} "\${prefix}/${CMAKE_INSTALL_${_d}}")
  endif()
endforeach()
# Two packages, as the CMake package has two targets: ltensor.pc links the static library
# (ltensor::ltensor) by its path, so `pkg-config --libs ltensor`, with or without --static, never
# picks libltensor.so and the host runs without LD_LIBRARY_PATH; it adds what the archive needs
# (-lm, -pthread, dlopen for the BLAS loaded at run time (src/core/ops/lt_blas.c), zlib for .npz
# deflate (src/core/io/lt_zip.c), libpng and libjpeg for lt.image). ltensor-shared.pc links libltensor.so (ltensor::ltensor_shared),
# which carries those itself.
set(LT_PC_DL "")
foreach(_l ${CMAKE_DL_LIBS})
  string(APPEND LT_PC_DL " -l${_l}")
endforeach()
set(LT_PC_ZLIB "")
if(ZLIB_FOUND)
  set(LT_PC_ZLIB " zlib")
endif()
if(PNG_FOUND) # lt.image (src/core/io/lt_image_png.c, lt_image_jpeg.c)
  string(APPEND LT_PC_ZLIB " libpng")
endif()
if(JPEG_FOUND)
  string(APPEND LT_PC_ZLIB " libjpeg")
endif()
function(ltensor_pc LT_PC_NAME LT_PC_KIND LT_PC_REQUIRES LT_PC_LIBS)
  configure_file(cmake/ltensor.pc.in ${PROJECT_BINARY_DIR}/${LT_PC_NAME}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${LT_PC_NAME}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
set(_static "${CMAKE_STATIC_LIBRARY_PREFIX}ltensor${CMAKE_STATIC_LIBRARY_SUFFIX}")
ltensor_pc(ltensor "static library" "${LT_PC_ZLIB}" "\${libdir}/${_static} -lm -pthread${LT_PC_DL}")
ltensor_pc(ltensor-shared "shared library" "" "-L\${libdir} -lltensor")
