package dev.openrag.ingest.source.sync;

import java.io.File;

import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.storage.file.FileBasedConfig;
import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.SystemReader;

/**
 * JGit as it comes, whatever account and shell run it: it reads neither the machine's git configuration (the user's
 * {@code ~/.gitconfig} and XDG one, the system's, JGit's own) nor its {@code GIT_*} variables. A git source is what the
 * source says and the {@code openrag.fetch.*} rules allow: a user's {@code url.*.insteadOf} would send a fetch elsewhere,
 * {@code core.hooksPath} run their hooks, {@code init.defaultBranch} and {@code core.excludesFile} change the repositories
 * the tests make, {@code GIT_DIR} (set while a git hook runs) make {@code git init} use another repository. A repository's
 * own {@code config} still counts.
 */
public final class JGitDefaults {

    private JGitDefaults() {
    }

    /** Makes every JGit use in this JVM (the app's and the tests') run so; idempotent. */
    public static synchronized void use() {
        if (!(SystemReader.getInstance() instanceof WithoutTheMachine)) {
            SystemReader.setInstance(new WithoutTheMachine(SystemReader.getInstance()));
        }
    }

    /** {@code base} without the machine's configuration files and git variables. */
    static SystemReader withoutTheMachine(SystemReader base) {
        return new WithoutTheMachine(base);
    }

    private static final class WithoutTheMachine extends SystemReader.Delegate {

        WithoutTheMachine(SystemReader base) {
            super(base);
        }

        @Override
        public String getenv(String variable) {
            return variable.startsWith("GIT_") ? null : super.getenv(variable);
        }

        @Override
        public FileBasedConfig openUserConfig(Config parent, FS fs) {
            return new Empty(parent, fs);
        }

        @Override
        public FileBasedConfig openSystemConfig(Config parent, FS fs) {
            return new Empty(parent, fs);
        }

        @Override
        public FileBasedConfig openJGitConfig(Config parent, FS fs) {
            return new Empty(parent, fs);
        }
    }

    /** A configuration file that holds nothing and is never read or written (/dev/null names it in messages). */
    private static final class Empty extends FileBasedConfig {

        Empty(Config parent, FS fs) {
            super(parent, new File("/dev/null"), fs);
        }

        @Override
        public void load() {
            // nothing to read
        }

        @Override
        public void save() {
            // nothing to keep
        }

        @Override
        public boolean isOutdated() {
            return false;
        }
    }
}
