# Sourced by mvnw, openrag and .ci/run: makes JAVA_HOME point at a JDK >= 21.
# Neo4j 2026.x and OpenSearch 3.x need Java 21+, and the whole build targets 21, so the
# machine's default java (17 here) is not enough. Order of preference: an explicit
# OPENRAG_JAVA_HOME, the current JAVA_HOME, the java on PATH, then the newest JDK under
# /usr/lib/jvm. Fails with a clear message when none qualifies.

openrag_java_major() {
  # prints the feature version of the java binary $1 (17, 21, 25, ...) or nothing
  "$1" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

openrag_select_jdk() {
  min=21
  for candidate in "${OPENRAG_JAVA_HOME-}" "${JAVA_HOME-}" \
      "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")" \
      $(find /usr/lib/jvm -mindepth 1 -maxdepth 1 2>/dev/null | sort -rV); do
    candidate=${candidate%/}
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major=$(openrag_java_major "$candidate/bin/java")
    if [ -n "$major" ] && [ "$major" -ge "$min" ]; then
      JAVA_HOME=$candidate
      export JAVA_HOME
      return 0
    fi
  done
  echo "OpenRAG needs a JDK $min or newer (Neo4j 2026.x and OpenSearch 3.x require it)." >&2
  echo "None was found in OPENRAG_JAVA_HOME, JAVA_HOME, PATH or /usr/lib/jvm." >&2
  echo "Install one (e.g. 'apt-get install openjdk-21-jdk-headless' or Temurin 21/25) or set OPENRAG_JAVA_HOME." >&2
  return 1
}
