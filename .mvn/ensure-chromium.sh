# Sourced by mvnw and openrag: the crawler drives Debian's Chromium (/usr/bin/chromium) through
# Playwright and never downloads a browser. When it is missing and we may install packages
# (root with apt-get), install the `chromium` package once; otherwise say how. Quiet when present.
# OPENRAG_SKIP_CHROMIUM=1 skips the check (the crawler then answers 503 and its tests fail, saying why).

openrag_ensure_chromium() {
  chromium_path=${OPENRAG_CRAWLER_CHROMIUM:-/usr/bin/chromium}
  [ "${OPENRAG_SKIP_CHROMIUM:-0}" = 1 ] && return 0
  [ -x "$chromium_path" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "openrag: $chromium_path is missing; installing Debian's chromium package for the crawler (once) ..." >&2
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; }; then
      echo "openrag: chromium installed" >&2
      return 0
    fi
    echo "openrag: could not install chromium with apt-get; the crawler and its tests need it (apt-get install chromium)" >&2
  else
    echo "openrag: the crawler needs Debian's Chromium at $chromium_path: run 'sudo apt-get install chromium'" \
         "(or set OPENRAG_CRAWLER_CHROMIUM); everything else works without it" >&2
  fi
  return 0
}

openrag_ensure_chromium
