package dev.openrag.cli;

import java.util.concurrent.Callable;

import dev.openrag.localstack.ComponentSpec;
import dev.openrag.localstack.ComponentStatus;
import picocli.CommandLine.Command;

/** One line per component (name, state, pid, port), with the log tail of any that failed. */
@Command(name = "status", description = "Show each component's state, pid, port and health. Exit code 3 if any failed.")
class StatusCommand implements Callable<Integer> {

    static final int SOME_FAILED = 3;

    @Override
    public Integer call() {
        Stack stack = new Stack();
        System.out.printf("%-18s %-10s %-8s %-6s%n", "COMPONENT", "STATE", "PID", "PORT");
        boolean failed = false;
        StringBuilder tails = new StringBuilder();
        for (ComponentSpec spec : stack.allSpecs()) {
            ComponentStatus status = stack.engines.supervisor().status(spec);
            System.out.printf("%-18s %-10s %-8s %-6d%n", status.name(), status.state().name().toLowerCase(),
                    status.pid() == null ? "-" : status.pid(), status.port());
            if (status.state() == ComponentStatus.State.FAILED || status.state() == ComponentStatus.State.UNHEALTHY) {
                failed |= status.state() == ComponentStatus.State.FAILED;
                tails.append(String.format("%n%s is %s; last lines of %s:%n", status.name(),
                        status.state().name().toLowerCase(), stack.engines.supervisor().logFile(status.name())));
                status.logTail().forEach(line -> tails.append("  ").append(line).append('\n'));
            }
        }
        System.out.print(tails);
        return failed ? SOME_FAILED : 0;
    }
}
