#!/usr/bin/env bash
# Shared set-up for the project's scripts: make sure a JDK 17 and Maven are present (installing them from
# Debian's packages on a fresh machine), then build what is asked for.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

ensure_toolchain() {
  local missing=()
  command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
  command -v mvn >/dev/null 2>&1 || missing+=(maven)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  local v
  v=$(java -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/{print $2}')
  if [ "${v%%.*}" -lt 17 ] 2>/dev/null; then
    echo "setup: Java 17 or newer is required (found $v)" >&2; exit 1
  fi
}

# Builds core (classes + runtime class path file) unless it is up to date with its sources.
build_core() {
  local stamp="$ROOT/core/target/classpath.txt"
  if [ ! -f "$stamp" ] || [ -n "$(find "$ROOT/core/src/main" "$ROOT/core/pom.xml" "$ROOT/pom.xml" -newer "$stamp" -print -quit)" ]; then
    (cd "$ROOT" && mvn -B -q -pl core -am -DskipTests compile) >&2
    touch "$stamp"
  fi
}

core_classpath() {
  echo "$ROOT/core/target/classes:$(cat "$ROOT/core/target/classpath.txt")"
}
