package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class JavaRuntimeTest {

    @Test
    void extraOptionsFollowTheCommonOnesSplitOnWhitespace() {
        assertThat(JavaRuntime.commonOptions("  -XX:TieredStopAtLevel=1 \t -Xss1m "))
                .containsSubsequence("-XX:TieredStopAtLevel=1", "-Xss1m")
                .endsWith(JavaRuntime.NEUTRAL_SETTINGS.toArray(String[]::new))
                .hasSize(JavaRuntime.commonOptions(null).size() + 2);
    }

    @Test
    void noExtraOptionsWhenUnsetOrBlank() {
        assertThat(JavaRuntime.commonOptions("  ")).isEqualTo(JavaRuntime.commonOptions(null))
                .noneMatch(option -> option.isBlank() || option.startsWith("-XX:TieredStopAtLevel"));
    }

    @Test
    void aJavaStartsWithTheTestBuildsOptions() throws Exception {
        // the options the build hands the engines (or the usual ones) start a real JVM: a typo in the pom would stop every engine
        String built = System.getenv(JavaRuntime.EXTRA_OPTIONS_VARIABLE);
        String options = built == null || built.isBlank() ? "-XX:TieredStopAtLevel=1" : built;
        List<String> command = new ArrayList<>();
        command.add(JavaRuntime.javaBinary());
        command.addAll(JavaRuntime.commonOptions(options));
        command.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(java.exitValue()).as(output).isZero();
        if (options.contains("TieredStopAtLevel=1")) {
            assertThat(output).containsPattern("TieredStopAtLevel\\s*=\\s*1\\b");
        }
    }

    @Test
    void aChildRunsInEnglishAndUtcWhateverTheUsersJavaToolOptionsSay() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(JavaRuntime.javaBinary());
        command.addAll(JavaRuntime.commonOptions(null));
        command.addAll(List.of("-XshowSettings:properties", "-version"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("JAVA_TOOL_OPTIONS", "-Duser.language=tr -Duser.country=TR -Duser.timezone=Pacific/Chatham -Dfile.encoding=ISO-8859-9");
        Process java = builder.start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(output).as("the variable was read").contains("Picked up JAVA_TOOL_OPTIONS")
                .containsPattern("user\\.language = en\\b").containsPattern("user\\.country = US\\b")
                .containsPattern("user\\.timezone = UTC\\b").containsPattern("file\\.encoding = UTF-8\\b");
    }

    @Test
    void underThePosixLocaleTheScriptsGiveJavaUtf8FileNames() throws Exception {
        // Java decodes file names in the C library's locale charset: ASCII under POSIX, where a path with "ü" reads as "?"
        Path script = Path.of("../.mvn/utf8-locale.sh").toAbsolutePath().normalize();
        assertThat(script).isRegularFile();
        String plain = fileNameEncoding(null);
        Assumptions.assumeFalse(plain.equals("UTF-8"), "this machine's POSIX locale already names files in UTF-8 (macOS)");
        Assumptions.assumeTrue(hasCUtf8Locale(), "this machine has no C.UTF-8 locale (`LC_ALL=C.UTF-8 locale charmap` says so), the one the script switches to; "
                + "without it file names stay ASCII, which this test cannot change");
        assertThat(fileNameEncoding(script)).isEqualTo("UTF-8");
        // a JVM the script did not start is the control: what every JVM got before
        assertThat(plain).isNotEqualTo("UTF-8");
    }

    /** Whether the C library knows C.UTF-8 (glibc 2.35+ builds it in; older ones and musl need it installed). */
    private static boolean hasCUtf8Locale() throws Exception {
        ProcessBuilder builder = new ProcessBuilder("locale", "charmap").redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.equals("LANG") || name.startsWith("LC_"));
        builder.environment().put("LC_ALL", "C.UTF-8");
        Process locale;
        try {
            locale = builder.start();
        } catch (java.io.IOException noLocaleCommand) {
            return false; // the script asks `locale` too
        }
        String output = new String(locale.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return locale.waitFor(60, TimeUnit.SECONDS) && output.strip().equals("UTF-8");
    }

    /** sun.jnu.encoding of a java started with LANG and LC_* unset, through {@code script} (sourced) when given. */
    private static String fileNameEncoding(Path script) throws Exception {
        String java = "exec \"$1\" -XshowSettings:properties -version";
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", script == null ? java : ". \"$2\"; " + java, "sh",
                JavaRuntime.javaBinary(), script == null ? "" : script.toString()).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.equals("LANG") || name.startsWith("LC_"));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return output.lines().filter(line -> line.strip().startsWith("sun.jnu.encoding = ")).map(line -> line.strip().substring(19))
                .findFirst().orElseThrow(() -> new AssertionError("no sun.jnu.encoding in: " + output));
    }
}
