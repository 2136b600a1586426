package dev.openrag.localstack;

import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Entry point of every engine JVM: {@code EngineMain <realMainClass> args...}. When
 * {@code OPENRAG_WATCH_PID} is set (test runs), the engine exits as soon as that process is gone,
 * so an aborted test run never leaves engines behind.
 */
public final class EngineMain {

    static final String WATCH_PID_ENV = "OPENRAG_WATCH_PID";

    private EngineMain() {
    }

    public static void main(String[] args) throws Exception {
        String watchPid = System.getenv(WATCH_PID_ENV);
        if (watchPid != null && !watchPid.isBlank()) {
            long pid = Long.parseLong(watchPid.trim());
            Thread watcher = new Thread(() -> {
                while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                System.out.println("openrag: parent process " + pid + " is gone, stopping");
                System.exit(0);
            }, "openrag-parent-watch");
            watcher.setDaemon(true);
            watcher.start();
        }
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    }
}
