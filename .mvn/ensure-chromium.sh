# Sourced by mvnw and openrag: the crawler drives Debian's Chromium (/usr/bin/chromium) through
# Playwright and never downloads a browser. When it is missing and we may install packages
# (root with apt-get), install the `chromium` package once; otherwise say how. Quiet when present.
# OPENRAG_SKIP_CHROMIUM=1 skips the check (the crawler then answers 503 and its tests fail, saying why).
. "$(dirname "$0")/.mvn/debian-package.sh" # $0: mvnw or openrag, both at the root
openrag_ensure_debian_package chromium "${OPENRAG_CRAWLER_CHROMIUM:-/usr/bin/chromium}" "the crawler and its tests" OPENRAG_SKIP_CHROMIUM
