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

# Builds the sim module and core under it (classes + sim/target/classpath.txt, which names core's classes)
# unless they are up to date with their sources: the simulator, the benchmarks on the core alone and the key
# dealer's command live there.
build_sim() {
  local stamp="$ROOT/sim/target/classpath.txt"
  if [ ! -f "$stamp" ] || [ -n "$(find "$ROOT/core/src/main" "$ROOT/sim/src/main" "$ROOT/core/pom.xml" \
      "$ROOT/core/src/test/java/org/bftws/core/testkit" "$ROOT/sim/pom.xml" "$ROOT/pom.xml" -newer "$stamp" -print -quit)" ]; then
    # sim uses core's test kit (test-jar) and writes its class path file in process-test-classes: the
    # test classes are compiled, no test runs (see sim/pom.xml)
    (cd "$ROOT" && mvn -B -q -pl sim -am -DskipTests process-test-classes) >&2
    touch "$stamp"
  fi
}

sim_classpath() {
  echo "$ROOT/sim/target/classes:$(cat "$ROOT/sim/target/classpath.txt")"
}

# Builds core, the module, the sample services and client-lib (jars, target/axis2-artifacts and
# client-lib/target/classpath.txt) unless they are up to date with their sources (the sample services' test
# sources too: the faulty .aars are built from them).
build_group() {
  local stamp="$ROOT/client-lib/target/classpath.txt"
  if [ ! -f "$stamp" ] || [ ! -d "$ROOT/client-lib/target/axis2-artifacts" ] || [ -n "$(find "$ROOT/pom.xml" \
      "$ROOT"/{core,module,sample-services,client-lib}/pom.xml "$ROOT"/{core,module,sample-services,client-lib}/src/main \
      "$ROOT/wsdl" "$ROOT/sample-services/src/test" \
      -newer "$stamp" -print -quit)" ]; then
    echo "build: mvn -DskipTests package -pl client-lib -am" >&2
    (cd "$ROOT" && mvn -B -q -DskipTests package -pl client-lib -am) >&2
    touch "$stamp"
  fi
}

group_classpath() {
  echo "$ROOT/client-lib/target/classes:$(cat "$ROOT/client-lib/target/classpath.txt")"
}

# The command line of the group's replica and client JVMs (small heaps, the project's log4j2 configuration)
# into the array GROUP_JAVA; group_java runs it.
group_java_command() {
  GROUP_JAVA=(java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1
    -Dlog4j2.configurationFile="$ROOT/conf/log4j2.xml"
    -Dorg.apache.axis2.transport.http.server.fastShutdown=true -cp "$(group_classpath)")
}

group_java() {
  group_java_command
  "${GROUP_JAVA[@]}" "$@"
}

# The HTTP status of GET http://127.0.0.1:PORT/PATH, or 000 when nothing answers within 5 s.
http_status() {
  local port="$1" path="$2" line=""
  if { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null; then
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$path" >&3
    read -r -t 5 line <&3 || true
    exec 3<&- 3>&-
  fi
  local code
  code=$(printf '%s' "$line" | awk '{print $2}')
  echo "${code:-000}"
}

# True when PID is alive and is one of our replicas (a GroupLauncher JVM, not a reused pid; a killed one not
# yet reaped has no command line).
group_replica_running() {
  kill -0 "$1" 2>/dev/null && tr '\0' ' ' < "/proc/$1/cmdline" 2>/dev/null | grep -q "org.bftws.client.group.GroupLauncher"
}

# Absolute group directory from --dir (default run/group under the project root).
group_dir() {
  local d="${1:-$ROOT/run/group}"
  case "$d" in /*) ;; *) d="$PWD/$d" ;; esac
  echo "$d"
}
