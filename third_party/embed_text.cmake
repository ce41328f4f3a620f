# Writes OUT, a C++ file that embeds text files, in one of two forms:
#   -DIN=file -DSYMBOL=name            `const char* name()` returns the text of IN;
#   -DDIR=dir -DGLOB=*.cu,*.cuh -DSYMBOL=name
#                                      `extern const char* const name[]` holds, for every file under
#                                      DIR that matches GLOB (sorted by path), its path relative to
#                                      DIR then its text, and ends with a null pointer.
if(DIR)
  set(patterns)
  string(REPLACE "," ";" GLOB "${GLOB}")
  foreach(g ${GLOB})
    list(APPEND patterns ${DIR}/${g})
  endforeach()
  file(GLOB_RECURSE files RELATIVE ${DIR} ${patterns})
  list(SORT files)
  set(body "// Generated from ${DIR} by third_party/embed_text.cmake; do not edit.\nnamespace primlab {\n")
  string(APPEND body "extern const char* const ${SYMBOL}[];\nconst char* const ${SYMBOL}[] = {\n")
  foreach(f ${files})
    file(READ ${DIR}/${f} text)
    string(APPEND body "    \"${f}\", R\"primlab_text(${text})primlab_text\",\n")
  endforeach()
  string(APPEND body "    nullptr};\n}  // namespace primlab\n")
  file(WRITE ${OUT} "${body}")
else()
  file(READ ${IN} text)
  file(WRITE ${OUT} "// Generated from ${IN} by third_party/embed_text.cmake; do not edit.\nnamespace primlab {\nconst char* ${SYMBOL}() {\n  return R\"primlab_text(${text})primlab_text\";\n}\n}  // namespace primlab\n")
endif()
