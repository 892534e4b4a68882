# ltensor_embed_lua(OUTPUT <file.c> FILES <lua/ltensor/x.lua>...): writes a C file defining
# ltl_luasrcs[] (src/binding/lua_luasrc.h), each file as a byte array with its module name
# (lua/ltensor/init.lua is "ltensor", lua/ltensor/x.lua "ltensor.x"), for ltensor_open().
# The files are relative to the source directory; editing one reconfigures.
set(LT_EMBED_LUA_DIR "${CMAKE_CURRENT_LIST_DIR}")
function(ltensor_embed_lua)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "OUTPUT" "FILES")
  set(LT_LUA_ARRAYS "")
  set(LT_LUA_ENTRIES "")
  foreach(_file ${arg_FILES})
    set(_path "${PROJECT_SOURCE_DIR}/${_file}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_path}")
    file(RELATIVE_PATH _rel "${PROJECT_SOURCE_DIR}/lua" "${_path}") # ltensor/x.lua
    string(REGEX REPLACE "(/init)?\\.lua$" "" _mod "${_rel}")
    string(REPLACE "/" "." _mod "${_mod}")
    string(MAKE_C_IDENTIFIER "src_${_mod}" _id)
    file(READ "${_path}" _hex HEX)
    file(SIZE "${_path}" _len)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _hex "${_hex}")
    string(APPEND LT_LUA_ARRAYS "static const unsigned char ${_id}[] = {${_hex}0};\n")
    string(APPEND LT_LUA_ENTRIES
           "  {\"${_mod}\", \"@${_rel}\", (const char *)${_id}, ${_len}},\n")
  endforeach()
  configure_file("${LT_EMBED_LUA_DIR}/luasrc.c.in" "${arg_OUTPUT}" @ONLY)
endfunction()
