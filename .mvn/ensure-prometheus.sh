# Sourced by mvnw: PrometheusScrapeIT runs Debian's Prometheus (/usr/bin/prometheus) against the three apps and checks
# the series deploy/grafana's dashboard plots. When it is missing and we may install packages (root with apt-get),
# install the `prometheus` package once (it is not started as a service here); otherwise that test is skipped, saying
# why. OPENRAG_SKIP_PROMETHEUS=1 skips the check.
. "$(dirname "$0")/.mvn/debian-package.sh" # $0: mvnw or openrag, both at the root
openrag_ensure_debian_package prometheus /usr/bin/prometheus "the Prometheus scrape test" OPENRAG_SKIP_PROMETHEUS
