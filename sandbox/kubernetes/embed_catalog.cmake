# Writes a C++ source holding the API catalog (sandbox/kubernetes/api_catalog.json) as one
# string, so the sandbox never reads the spec at run time. Run by CMake at build time:
#   cmake -DINPUT=<json> -DOUTPUT=<cc> -P embed_catalog.cmake
file(READ "${INPUT}" catalog)
string(FIND "${catalog}" ")catalog\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )catalog\"")
endif()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from sandbox/kubernetes/api_catalog.json by embed_catalog.cmake. Do not edit.\n"
  "#include \"sandbox/kubernetes/api_catalog_text.h\"\n\n"
  "namespace strata::sandbox::k8s {\n\n"
  "const char* ApiCatalogText() {\n"
  "  static const char text[] = R\"catalog(${catalog})catalog\";\n"
  "  return text;\n"
  "}\n\n"
  "}  // namespace strata::sandbox::k8s\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
