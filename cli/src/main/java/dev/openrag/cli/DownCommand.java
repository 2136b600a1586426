package dev.openrag.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import dev.openrag.localstack.ComponentSpec;
import picocli.CommandLine.Command;

/** Stops every process {@code up} started: apps first (they hold connections), then engines. */
@Command(name = "down", description = "Stop everything `openrag up` started (data is kept).")
class DownCommand implements Runnable {

    @Override
    public void run() {
        Stack stack = new Stack();
        List<ComponentSpec> specs = new ArrayList<>(stack.allSpecs());
        Collections.reverse(specs);
        int stopped = 0;
        for (ComponentSpec spec : specs) {
            var process = stack.engines.supervisor().runningProcess(spec.name());
            if (stack.engines.supervisor().stop(spec.name(), Duration.ofSeconds(30))) {
                System.out.printf(Locale.ROOT, "  stopped %-16s (pid %d)%n", spec.name(), process.map(ProcessHandle::pid).orElse(-1L));
                stopped++;
            }
        }
        System.out.println(stopped == 0 ? "nothing was running" : "OpenRAG is down; data kept in " + stack.config.home());
    }
}
