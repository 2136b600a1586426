package dev.openrag.localstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lower CPU priority for a component whose work can wait (the ingest pipeline's embedding), so
 * that searches get the cores first when both want them. Linux needs two settings for that:
 * <ul>
 * <li>every thread's nice value, set by starting the command under {@code nice(1)}: the JVM's
 * threads inherit it;</li>
 * <li>with the kernel's autogroup scheduling ({@code /proc/sys/kernel/sched_autogroup_enabled}, on
 * by default in most distributions) CPU is first shared equally between sessions, and nice values
 * only order the threads of one session. A component started in a session of its own (as
 * {@code openrag up} starts them, see {@link ProcessSupervisor}) therefore also needs its session's
 * group lowered, through {@code /proc/PID/autogroup}, once the process leads that session.</li>
 * </ul>
 * Without either (another OS, no {@code nice} binary) the component runs at normal priority.
 */
final class CpuPriority {

    private static final Logger LOG = LoggerFactory.getLogger(CpuPriority.class);
    private static final Path NICE = Path.of("/usr/bin/nice");

    private CpuPriority() {
    }

    /** What to put before a command to run it {@code niceness} lower (nothing for 0). */
    static List<String> commandPrefix(int niceness) {
        return niceness > 0 && Files.isExecutable(NICE) ? List.of(NICE.toString(), "-n", Integer.toString(niceness)) : List.of();
    }

    /**
     * Lowers the autogroup of the session that {@code pid} leads, waiting up to a second for it to
     * have called setsid. A process that shares its parent's session is left alone: lowering that
     * group would lower the caller too.
     *
     * @return whether the group was lowered
     */
    static boolean lowerOwnSessionGroup(long pid, int niceness) {
        Path autogroup = Path.of("/proc", Long.toString(pid), "autogroup");
        if (niceness <= 0 || !Files.exists(autogroup)) {
            return false;
        }
        for (int attempt = 0; attempt < 50; attempt++) {
            OptionalLong session = session(pid);
            if (session.isEmpty()) {
                return false; // gone
            }
            if (session.getAsLong() == pid) {
                try {
                    Files.writeString(autogroup, Integer.toString(niceness));
                    return true;
                } catch (IOException e) {
                    LOG.warn("could not lower the CPU priority of pid {}'s session ({}): it runs at normal priority", pid, e.getMessage());
                    return false;
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** The session id of {@code pid}, from {@code /proc/PID/stat} (empty when the process is gone or there is no /proc). */
    static OptionalLong session(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return OptionalLong.of(Long.parseLong(fields[3]));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }
}
