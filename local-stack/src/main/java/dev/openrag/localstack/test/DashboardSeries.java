package dev.openrag.localstack.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The series deploy/grafana/openrag-dashboard.json plots: every metric name in its panels' queries. */
public final class DashboardSeries {

    /** From a module's folder, as tests run. */
    public static final Path DASHBOARD = Path.of("../deploy/grafana/openrag-dashboard.json");
    private static final Pattern METRIC = Pattern.compile("\\b(openrag_[a-z_]+|http_server_requests_seconds_[a-z]+)\\b");

    private DashboardSeries() {
    }

    public static Set<String> referenced() {
        try {
            JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
            Set<String> names = new TreeSet<>();
            for (JsonNode panel : dashboard.path("panels")) {
                for (JsonNode target : panel.path("targets")) {
                    Matcher matcher = METRIC.matcher(target.path("expr").asText());
                    while (matcher.find()) {
                        names.add(matcher.group(1));
                    }
                }
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
