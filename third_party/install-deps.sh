#!/usr/bin/env bash
# Installs what primlab needs to build, run and test, from Debian's packages (run as root; does
# nothing when everything is there). The CUDA toolkit is not a Debian package here: it is used
# when nvcc is at /usr/local/cuda or on PATH, and without it primlab builds its CPU-only app.
set -euo pipefail
packages=(
  cmake g++ make pkg-config python3-glad          # build, OpenGL loader generator
  libglfw3-dev libimgui-dev libstb-dev            # window, UI, PNG
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri  # OpenGL/EGL (headless through Mesa)
  libgtest-dev nlohmann-json3-dev libcli11-dev libgif-dev libtbb-dev
  python3-dev python3-venv                        # the Python package (pip install ./python)
  xvfb xauth x11-apps xdotool                     # GUI tests in a real window
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
