package dev.openrag.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code openrag}: runs OpenRAG on this machine. Later commands (ingest, ask, eval, bench) join here. */
@Command(name = "openrag", mixinStandardHelpOptions = true, version = "openrag 0.1.0",
        description = "Open, self-hosted knowledge platform for AI agents.",
        subcommands = {UpCommand.class, DownCommand.class, StatusCommand.class, LogsCommand.class,
                IngestCommand.class, EstimateCommand.class, SettingsCommand.class, CrawlCommand.class, SyncCommand.class, ReindexCommand.class, DlqCommand.class, KeysCommand.class, CredentialsCommand.class, MemoryCommand.class, SearchCommand.class, AskCommand.class, BenchCommand.class, EvalCommand.class})
public class OpenRagCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    static int execute(String... args) {
        return new CommandLine(new OpenRagCommand())
                .setExecutionExceptionHandler((error, commandLine, parseResult) -> {
                    // expected failures (port taken, engine crashed) are messages, not stack traces
                    commandLine.getErr().println("openrag: " + error.getMessage());
                    return 1;
                })
                .execute(args);
    }
}
