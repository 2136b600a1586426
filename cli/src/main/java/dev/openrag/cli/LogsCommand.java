package dev.openrag.cli;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import dev.openrag.localstack.ComponentSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Prints a component's log, optionally following it. */
@Command(name = "logs", description = "Print the log of a component (kafka, neo4j, opensearch, query-api, ingest-pipeline, mcp-memory).")
class LogsCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "NAME", description = "component name")
    String name;

    @Option(names = {"-n", "--lines"}, defaultValue = "100", description = "how many last lines (default ${DEFAULT-VALUE})")
    int lines;

    @Option(names = {"-f", "--follow"}, description = "keep printing new lines")
    boolean follow;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Stack stack = new Stack();
        List<String> names = stack.allSpecs().stream().map(ComponentSpec::name).toList();
        if (!names.contains(name)) {
            System.err.println("openrag: unknown component '" + name + "'; one of " + String.join(", ", names));
            return 2;
        }
        Path log = stack.engines.supervisor().logFile(name);
        if (!Files.exists(log)) {
            System.err.println("openrag: no log yet for " + name + " (" + log + ")");
            return 1;
        }
        List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
        all.subList(Math.max(0, all.size() - lines), all.size()).forEach(System.out::println);
        if (follow) {
            try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
                long position = file.length();
                while (true) {
                    if (file.length() > position) {
                        file.seek(position);
                        byte[] chunk = new byte[(int) (file.length() - position)];
                        file.readFully(chunk);
                        System.out.print(new String(chunk, StandardCharsets.UTF_8));
                        position += chunk.length;
                    }
                    Thread.sleep(500);
                }
            }
        }
        return 0;
    }
}
