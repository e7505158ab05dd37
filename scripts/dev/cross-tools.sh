#!/usr/bin/env bash
# What `npm pack` (scripts/prebuild.js) and `npm run test:package` need
# beyond a native build, installed from Debian where missing (as root, as
# .ci/run runs): the arm64 and MinGW cross compilers, llvm-readobj /
# llvm-objdump (scripts/dev/check-prebuilds.js), qemu-user with arm64's
# glibc and libstdc++ to run the official arm64 node binaries, and wine64 to
# run the official node.exe (20 and 22: Debian 12's wine 8 cannot start 24). qemu is
# registered with binfmt_misc so that an arm64 node can start arm64 child
# processes (the tests spawn process.execPath). Zig and the node binaries
# come from npm, fetched by the scripts that use them.
#   bash scripts/dev/cross-tools.sh               compilers, llvm, qemu + binfmt_misc, wine64
#   bash scripts/dev/cross-tools.sh --build-only  compilers and llvm (npm pack only)
set -euo pipefail
build_only=0
[ "${1:-}" = "--build-only" ] && build_only=1
need() { command -v "$1" >/dev/null 2>&1; }
pkgs=()
need aarch64-linux-gnu-g++ || pkgs+=(g++-aarch64-linux-gnu)
need x86_64-w64-mingw32-g++ || pkgs+=(g++-mingw-w64-x86-64)
if [ $build_only = 0 ]; then
  need qemu-aarch64-static || pkgs+=(qemu-user-static)
  [ -x /usr/lib/wine/wine64 ] || pkgs+=(wine64)
  [ -e /usr/aarch64-linux-gnu/lib/libstdc++.so.6 ] || pkgs+=(libstdc++6-arm64-cross)
fi
[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || pkgs+=(libc6-arm64-cross)
need llvm-readobj || need llvm-readobj-14 || pkgs+=(llvm)
if [ ${#pkgs[@]} -gt 0 ]; then
  echo "cross-tools: apt-get install ${pkgs[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
fi
if [ $build_only = 1 ]; then
  echo "cross-tools: ready to build ($(aarch64-linux-gnu-g++ --version | head -1); $(x86_64-w64-mingw32-g++ --version | head -1))"
  exit 0
fi
# binfmt_misc: arm64 ELF files run through qemu (F: the interpreter is
# opened now, so it works in any mount namespace).
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
fi
echo "cross-tools: ready ($(aarch64-linux-gnu-g++ --version | head -1); $(x86_64-w64-mingw32-g++ --version | head -1); $(qemu-aarch64-static --version | head -1))"
