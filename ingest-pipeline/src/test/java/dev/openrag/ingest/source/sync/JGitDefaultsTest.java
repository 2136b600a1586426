package dev.openrag.ingest.source.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.SystemReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's git settings change neither what the app reads nor the repositories the tests make. */
class JGitDefaultsTest {

    @TempDir
    Path home;

    @TempDir
    Path work;

    private File userHome;
    private SystemReader reader;

    /** A user whose ~/.gitconfig names another first branch, ignores every .md file everywhere and signs each commit. */
    @BeforeEach
    void aUsersGitConfig() throws Exception {
        Files.writeString(home.resolve("ignored everywhere"), "*.md\n");
        Files.writeString(home.resolve(".gitconfig"), "[init]\n\tdefaultBranch = trunk\n[core]\n\texcludesFile = "
                + home.resolve("ignored everywhere") + "\n[commit]\n\tgpgSign = true\n");
        userHome = FS.DETECTED.userHome();
        reader = SystemReader.getInstance();
        FS.DETECTED.setUserHome(home.toFile());
    }

    @AfterEach
    void restore() {
        FS.DETECTED.setUserHome(userHome);
        SystemReader.setInstance(reader);
    }

    @Test
    void aRepositoryIsMadeAndReadAsJGitComesWhateverTheUsersGitConfigSays() throws Exception {
        SystemReader.setInstance(null);
        SystemReader asItComes = SystemReader.getInstance();

        // the control: JGit reading the machine's files follows the user's settings
        SystemReader.setInstance(new SystemReader.Delegate(asItComes)); // a fresh reader: none read before is remembered
        try (Git git = Git.init().setDirectory(work.resolve("plain").toFile()).call()) {
            assertThat(git.getRepository().getFullBranch()).isEqualTo("refs/heads/trunk");
            assertThat(added(git)).containsExactly("Main.java");
        }

        SystemReader.setInstance(JGitDefaults.withoutTheMachine(asItComes));
        try (Git git = Git.init().setDirectory(work.resolve("defaults").toFile()).call()) {
            assertThat(git.getRepository().getFullBranch()).isEqualTo("refs/heads/master");
            assertThat(added(git)).containsExactly("Main.java", "README.md");
            // the commit is not signed (there is no signer here): it is made
            assertThat(git.commit().setMessage("first").setAuthor("Test", "test@example.org")
                    .setCommitter("Test", "test@example.org").call().getRawGpgSignature()).isNull();
        }
    }

    @Test
    void theMachinesGitVariablesAreNotRead() {
        // GIT_DIR, as a git hook running the tests has it, would make `git init` use that repository
        SystemReader machine = new SystemReader.Delegate(reader) {
            @Override
            public String getenv(String variable) {
                return variable.equals("GIT_DIR") ? "/elsewhere/.git" : variable.equals("OTHER") ? "kept" : super.getenv(variable);
            }
        };
        assertThat(machine.getenv("GIT_DIR")).as("the control").isEqualTo("/elsewhere/.git");
        SystemReader defaults = JGitDefaults.withoutTheMachine(machine);
        assertThat(defaults.getenv("GIT_DIR")).isNull();
        assertThat(defaults.getenv("OTHER")).as("other variables are read").isEqualTo("kept");
    }

    @Test
    void usingItTwiceKeepsOneLayer() {
        JGitDefaults.use();
        SystemReader once = SystemReader.getInstance();
        JGitDefaults.use();
        assertThat(SystemReader.getInstance()).isSameAs(once);
    }

    private static List<String> added(Git git) throws Exception {
        Path folder = git.getRepository().getWorkTree().toPath();
        Files.writeString(folder.resolve("README.md"), "# read me\n");
        Files.writeString(folder.resolve("Main.java"), "class Main {}\n");
        git.add().addFilepattern(".").call();
        DirCache index = git.getRepository().readDirCache();
        List<String> paths = new ArrayList<>();
        for (int entry = 0; entry < index.getEntryCount(); entry++) {
            paths.add(index.getEntry(entry).getPathString());
        }
        return paths;
    }
}
