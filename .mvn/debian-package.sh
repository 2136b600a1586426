# Sourced by the ensure-*.sh scripts: a Debian package the project uses but never downloads by other means.
# openrag_ensure_debian_package PACKAGE PATH WHAT SKIP_VARIABLE
#   quiet when PATH is executable or SKIP_VARIABLE=1; otherwise, when we may install packages (root with apt-get),
#   installs PACKAGE once; otherwise says how. Never fails the calling command: WHAT says what goes without it.
openrag_ensure_debian_package() {
  package=$1 path=$2 what=$3 skip=$4
  [ "$(eval echo "\${$skip:-0}")" = 1 ] && return 0
  [ -x "$path" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "openrag: $path is missing; installing Debian's $package package for $what (once) ..." >&2
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$package" >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 \
             && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$package" >/dev/null 2>&1; }; then
      echo "openrag: $package installed" >&2
      return 0
    fi
    echo "openrag: could not install $package with apt-get; $what needs it (apt-get install $package)" >&2
  else
    echo "openrag: $what needs Debian's $package at $path: run 'sudo apt-get install $package'" \
         "(or set $skip=1 to stop this message); everything else works without it" >&2
  fi
  return 0
}
