# What `npm install` builds (npm runs `node-gyp rebuild` for a package with a binding.gyp): the
# addon of src/, against the libxsession that pkg-config finds, into build/Release/xsession.node.
# $PKG_CONFIG, as in autotools, may name another pkg-config or add arguments (a relocated prefix:
# PKG_CONFIG="pkg-config --define-variable=prefix=/opt/xs"). The rpath lets the addon find a
# library installed outside the loader's paths. CMakeLists.txt builds the same addon with CMake.
{
  "targets": [
    {
      "target_name": "xsession",
      "sources": [
        "src/addon.c", "src/args.c", "src/buffers.c", "src/bundle.c", "src/classes.c", "src/dispatch.c",
        "src/errors.c", "src/handles.c", "src/history.c", "src/import.c", "src/keys.c", "src/keys_update.c",
        "src/options.c", "src/planning.c", "src/progress.c", "src/reset.c", "src/retention.c", "src/search.c",
        "src/session.c", "src/session_read.c", "src/session_write.c", "src/store.c"
      ],
      "defines": ["NAPI_VERSION=8", "_POSIX_C_SOURCE=200809L"],
      "cflags_c": ["-std=c11", "<!@(${PKG_CONFIG:-pkg-config} --cflags xsession)"],
      "libraries": ["<!@(${PKG_CONFIG:-pkg-config} --libs xsession)", "-lpthread"],
      "ldflags": ["-Wl,-rpath,<!(${PKG_CONFIG:-pkg-config} --variable=libdir xsession)"],
      "conditions": [
        ["OS=='mac'", {
          "xcode_settings": {
            "OTHER_CFLAGS": ["-std=c11", "<!@(${PKG_CONFIG:-pkg-config} --cflags xsession)"],
            "OTHER_LDFLAGS": ["-Wl,-rpath,<!(${PKG_CONFIG:-pkg-config} --variable=libdir xsession)"]
          }
        }]
      ]
    }
  ]
}
