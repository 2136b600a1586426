# Sourced by mvnw (not by openrag): the build and its tests never see the settings a user exports for their own install
# (an admin key, ports, a data folder, a real LLM, a topic's partitions). The rule is by name, not a list: every variable
# that configures the apps goes, which is every one that MicroProfile Config maps to a key of theirs (openrag.x.y from
# OPENRAG_X_Y; the keys' other prefixes are quarkus, kafka and mp) and the hosted LLM providers' own key variables that
# LlmConfig reads. It is done here, before Maven starts, because Surefire and Failsafe leave out only variables named
# one by one (excludedEnvironmentVariables takes no pattern), and the test JVMs and every engine and app they start
# inherit Maven's environment. The tests set what they need themselves (the pom's environmentVariables, the specs they
# start processes with); a setting a test run does need is a Maven property (./mvnw verify -Dopenrag.crawler.chromium=...),
# which Surefire hands to the test JVMs as a system property. The scripts sourced before this one read theirs already
# (OPENRAG_JAVA_HOME, OPENRAG_SKIP_*, OPENRAG_CRAWLER_CHROMIUM). UserSettingsTest checks that none arrives.
openrag_drop_user_settings() {
  # a line of a multi-line value may look like a setting too: unsetting a name that is not set does nothing
  # SmallRye Config matches variable names without regard to case (openrag_auth_admin_key sets openrag.auth.admin-key),
  # and OTEL_* / SMALLRYE_* configure the apps too (their tracing exporter, extra config files)
  for openrag_setting in $(env | LC_ALL=C sed -n 's/^\([A-Za-z0-9_]*\)=.*/\1/p' \
      | LC_ALL=C grep -iE '^(OPENRAG|QUARKUS|KAFKA|MP|OTEL|SMALLRYE)_|^(OPENAI|ANTHROPIC|GEMINI)_API_KEY$'); do
    unset "$openrag_setting"
  done
  unset openrag_setting
}
