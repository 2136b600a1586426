# Sourced by mvnw and openrag: Java reads and writes file names in the charset of the C library's locale
# (sun.jnu.encoding, whatever -Dfile.encoding says), so under the POSIX locale (LANG unset, as in many containers and
# CI jobs) or a locale that is not installed, a checkout or a document whose path has a non-ASCII letter reads as '?'
# and is never found. Then every JVM started from here (Maven, tests, engines, apps) gets C.UTF-8, where the machine
# has it; a working UTF-8 locale stays as it is.
if [ "$(locale charmap 2>/dev/null)" != UTF-8 ] && [ "$(LC_ALL=C.UTF-8 locale charmap 2>/dev/null)" = UTF-8 ]; then
  LC_ALL=C.UTF-8
  export LC_ALL
fi
