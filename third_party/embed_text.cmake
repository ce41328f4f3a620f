# Writes OUT: a C++ file defining `const char* SYMBOL()` that returns the text of IN.
file(READ ${IN} text)
file(WRITE ${OUT} "// Generated from ${IN} by third_party/embed_text.cmake; do not edit.\nnamespace primlab {\nconst char* ${SYMBOL}() {\n  return R\"primlab_text(${text})primlab_text\";\n}\n}  // namespace primlab\n")
