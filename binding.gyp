{
  "targets": [
    {
      "target_name": "llhttp_napi",
      "sources": ["<!@(node -p \"require('./scripts/install/core-sources').join(' ')\")", "src/binding/addon.cc"],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "<!(node scripts/install/llhttp.js include)"
      ],
      "libraries": ["<!(node scripts/install/llhttp.js lib)"],
      "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags": ["-fvisibility=hidden", "-O3", "-ffunction-sections", "-fdata-sections"],
      "cflags_c": ["-std=c11"],
      "cflags_cc": ["-std=c++17"],
      "ldflags": ["-Wl,--exclude-libs,ALL", "-Wl,--gc-sections"],
      "xcode_settings": {
        "GCC_SYMBOLS_PRIVATE_EXTERN": "YES",
        "OTHER_CFLAGS": ["-std=c11", "-O3"],
        "OTHER_CPLUSPLUSFLAGS": ["-std=c++17", "-O3"]
      },
      "conditions": [
        # llhttp-napi/server's own transport (src/transport): libuv from the
        # node binary, on Linux and macOS; elsewhere the server uses node:net.
        ["OS!='win'", {
          "sources": ["src/transport/lhn_transport.c"],
          "defines": ["LHN_TRANSPORT"]
        }],
        ["OS=='linux' and '<!(node scripts/install/glibc.js)'=='1'", {
          "cflags": ["-include", "<(module_root_dir)/src/binding/glibc_compat.h"]
        }],
        ["OS=='linux' and '<!(echo $LLHTTP_NAPI_SANITIZE)'=='1'", {
          "cflags": ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"],
          "ldflags": ["-fsanitize=address,undefined", "-Wl,-z,nodelete"],
          "cflags!": ["-O3"],
          "configurations": { "Release": { "cflags!": ["-O3"], "cflags": ["-O1"] } }
        }]
      ]
    }
  ]
}
