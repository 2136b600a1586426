package dev.openrag.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.openrag.localstack.LocalStackException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code openrag memory import FILE.jsonl}: many memories into one scope, in batches, through query-api. */
@Command(name = "memory", description = "Agent memory: import a JSONL file of memories into a scope.",
        subcommands = MemoryCommand.Import.class)
class MemoryCommand implements Runnable {

    @Override
    public void run() {
        System.out.println("usage: openrag memory import FILE.jsonl --scope SCOPE [--batch 500]");
    }

    /**
     * Reads every line first (a line that is not a JSON object stops the import before anything is
     * sent), then posts batches to {@code POST /api/memories:batch}. A line without an {@code id}
     * gets one from its content, so importing a file again adds nothing twice; a line repeated
     * word for word is one memory.
     */
    @Command(name = "import", description = "Import memories from a JSONL file: one {text, id?, tags?, speaker?, occurredAt?, "
            + "pinned?, context?, supersedes?} per line. Importing again adds nothing twice.")
    static class Import implements Callable<Integer> {

        private static final ObjectMapper JSON = new ObjectMapper();

        @Option(names = "--query-url", defaultValue = "${env:OPENRAG_QUERY_API_URL:-http://127.0.0.1:8080}", description = "query-api URL")
        String url;

        @Parameters(index = "0", description = "the JSONL file")
        Path file;

        @Option(names = "--scope", required = true, description = "the memory scope to import into")
        String scope;

        @Option(names = "--batch", defaultValue = "500", description = "memories per request, 1-500 (default 500)")
        int batchSize;

        @Override
        public Integer call() throws IOException {
            if (batchSize < 1 || batchSize > 500) {
                throw new LocalStackException("--batch must be between 1 and 500, got " + batchSize);
            }
            List<ObjectNode> memories = read(file);
            ApiClient api = new ApiClient(url);
            int added = 0;
            int existing = 0;
            for (int from = 0; from < memories.size(); from += batchSize) {
                List<ObjectNode> batch = memories.subList(from, Math.min(memories.size(), from + batchSize));
                JsonNode answer;
                try {
                    answer = api.postJson("/api/memories:batch", JSON.writeValueAsString(Map.of("scope", scope, "memories", batch)));
                } catch (LocalStackException e) {
                    throw new LocalStackException("memories " + (from + 1) + "-" + (from + batch.size()) + " of " + memories.size()
                            + " were not imported (" + added + " added before them; run again to resume): " + e.getMessage());
                }
                added += answer.path("added").asInt();
                existing += answer.path("existing").asInt();
                System.out.println("imported " + (from + batch.size()) + "/" + memories.size() + " (added " + added
                        + ", already there " + existing + ")");
            }
            System.out.println("memory import scope=" + scope + " memories=" + memories.size() + " added=" + added
                    + " existing=" + existing);
            return 0;
        }

        /** The file's memories, each with an id; blank lines skipped, a line repeated word for word kept once. */
        static List<ObjectNode> read(Path file) throws IOException {
            if (!Files.isRegularFile(file)) {
                throw new LocalStackException("no such file: " + file);
            }
            Map<String, ObjectNode> memories = new LinkedHashMap<>();
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.isEmpty()) {
                    continue;
                }
                JsonNode node;
                try {
                    node = JSON.readTree(line);
                } catch (JsonProcessingException e) {
                    throw new LocalStackException(file + " line " + (i + 1) + " is not JSON: " + e.getOriginalMessage());
                }
                if (!(node instanceof ObjectNode memory) || !memory.path("text").isTextual()) {
                    throw new LocalStackException(file + " line " + (i + 1) + " must be a JSON object with a \"text\" string");
                }
                if (!memory.hasNonNull("id")) {
                    memory.put("id", "import-" + sha256(JSON.writeValueAsString(memory)));
                }
                ObjectNode before = memories.putIfAbsent(memory.path("id").asText(), memory);
                if (before != null && !before.equals(memory)) {
                    throw new LocalStackException(file + " line " + (i + 1) + " reuses id '" + memory.path("id").asText()
                            + "' of an earlier line with other content");
                }
            }
            if (memories.isEmpty()) {
                throw new LocalStackException(file + " holds no memories");
            }
            return new ArrayList<>(memories.values());
        }

        private static String sha256(String text) {
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
                return HexFormat.of().formatHex(digest, 0, 16);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
