#!/usr/bin/env python3
"""What pkg-config hands a user of xsession: only the include directory to compile with (none of
the library's private dependencies' flags), and to link statically everything libxsession.a
needs. Installs the build into a scratch prefix, checks both .pc files' answers exactly, then
builds the plain-C end-to-end program (tests/capi/smoke.c) against the installed library twice,
shared and static, from nothing but pkg-config's flags, and runs both.

Usage: pkgconfig_test.py BUILD_DIR SOURCE_DIR C_COMPILER WORK_DIR CXX_RUNTIME [BUILD_FLAGS]
(CXX_RUNTIME: the C++ runtime the build compiled against, -lstdc++ or -lc++. BUILD_FLAGS: flags
the build gave every program, which a program linking this build's library needs too: a
sanitizer build's -fsanitize=..., since its library calls the sanitizer's runtime. Empty for a
build that ships.)
"""
import os
import shlex
import shutil
import subprocess
import sys
import unittest

BUILD, SOURCE, CC, WORK, CXX_RUNTIME = sys.argv[1:6]
BUILD_FLAGS = shlex.split(sys.argv[6]) if len(sys.argv) > 6 else []
del sys.argv[1:7]


def run(*args, env=None):
    return subprocess.run(args, check=True, capture_output=True, text=True, env=env).stdout


def pkg_config(pc_dir, *args, prefix=None):
    env = dict(os.environ, PKG_CONFIG_PATH=pc_dir)
    define = [f"--define-variable=prefix={prefix}"] if prefix else []
    return shlex.split(run("pkg-config", *define, *args, "xsession", env=env))


def needed_libraries(binary):
    dynamic = run("readelf", "-d", binary)
    return [line.split("[", 1)[1].rstrip("]") for line in dynamic.splitlines() if "(NEEDED)" in line]


class PkgConfig(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        shutil.rmtree(WORK, ignore_errors=True)
        cls.prefix = os.path.join(WORK, "prefix")
        run("cmake", "--install", BUILD, "--prefix", cls.prefix)
        found = [os.path.join(d, f) for d, _, files in os.walk(cls.prefix) for f in files if f == "xsession.pc"]
        assert len(found) == 1, found
        cls.pc_dir = os.path.dirname(found[0])
        cls.libdir = os.path.dirname(cls.pc_dir)

    def test_the_schemas_are_installed_beside_the_library(self):
        installed = os.path.join(self.prefix, "share", "xsession", "schema")
        self.assertEqual(sorted(os.listdir(installed)), sorted(os.listdir(os.path.join(SOURCE, "capi", "schema"))))

    def test_build_tree_cflags_are_the_include_directory_only(self):
        self.assertEqual(pkg_config(os.path.join(BUILD, "pkgconfig"), "--cflags"),
                         ["-I" + os.path.join(SOURCE, "capi", "include")])

    def test_installed_cflags_are_the_include_directory_only(self):
        want = ["-I" + os.path.join(self.prefix, "include")]
        self.assertEqual(pkg_config(self.pc_dir, "--cflags", prefix=self.prefix), want)
        self.assertEqual(pkg_config(self.pc_dir, "--cflags", "--static", prefix=self.prefix), want)

    def test_shared_libs_name_only_xsession(self):
        self.assertEqual(pkg_config(self.pc_dir, "--libs", prefix=self.prefix), ["-L" + self.libdir, "-lxsession"])

    def test_static_libs_add_the_private_dependencies(self):
        flags = pkg_config(self.pc_dir, "--static", "--libs", prefix=self.prefix)
        self.assertEqual(flags[:2], ["-L" + self.libdir, "-lxsession"])
        libs = [f for f in flags if f.startswith("-l") or f == "-pthread"]
        self.assertEqual(libs, ["-lxsession", "-lsimdjson", "-lcrypto", "-lz", "-lsqlite3", "-larchive", "-lcmark", CXX_RUNTIME,
                                "-lm", "-pthread"])
        self.assertFalse([f for f in flags if f.startswith("-D")], flags)

    def build_smoke(self, name, libdir, link_flags):
        out = os.path.join(WORK, name)
        cflags = pkg_config(self.pc_dir, "--cflags", prefix=self.prefix)
        run(CC, "-std=c99", *BUILD_FLAGS, "-o", out, os.path.join(SOURCE, "tests", "capi", "smoke.c"), *cflags,
            *link_flags)
        env = dict(os.environ, LD_LIBRARY_PATH=libdir)
        scratch = os.path.join(WORK, name + "-scratch")
        result = subprocess.run([out, scratch], capture_output=True, text=True, env=env)
        self.assertEqual(result.returncode, 0, result.stderr[-2000:])
        return out

    def test_a_c_program_links_the_shared_library_from_pkg_config_alone(self):
        binary = self.build_smoke("smoke-shared", self.libdir,
                                  pkg_config(self.pc_dir, "--libs", prefix=self.prefix))
        self.assertIn("libxsession.so.0", needed_libraries(binary))

    def test_a_c_program_links_the_static_library_from_pkg_config_alone(self):
        # A copy of the installed libdir holding only the archive, so -lxsession can only mean it.
        static_dir = os.path.join(WORK, "static-lib")
        shutil.rmtree(static_dir, ignore_errors=True)
        os.makedirs(static_dir)
        shutil.copy(os.path.join(self.libdir, "libxsession.a"), static_dir)
        flags = [("-L" + static_dir if f == "-L" + self.libdir else f)
                 for f in pkg_config(self.pc_dir, "--static", "--libs", prefix=self.prefix)]
        binary = self.build_smoke("smoke-static", static_dir, flags)
        self.assertNotIn("libxsession.so.0", needed_libraries(binary))


if __name__ == "__main__":
    unittest.main(verbosity=2)
