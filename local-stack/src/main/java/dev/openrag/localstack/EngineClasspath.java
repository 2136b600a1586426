package dev.openrag.localstack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path of an engine JVM. Each engine-* module records its resolved dependencies in
 * {@code META-INF/openrag/engines/NAME.classpath} at build time; the engine module itself (its
 * launcher) and local-stack (for {@link EngineMain}) are added to it.
 */
public final class EngineClasspath {

    private EngineClasspath() {
    }

    public static String of(String engine) {
        String resource = "META-INF/openrag/engines/" + engine + ".classpath";
        URL url = EngineClasspath.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new LocalStackException("engine '" + engine + "' is not on the class path (" + resource
                    + " missing): build the project first with ./mvnw install -DskipTests");
        }
        List<String> entries = new ArrayList<>();
        try (InputStream in = url.openStream()) {
            for (String entry : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim().split(java.io.File.pathSeparator)) {
                if (!entry.isBlank()) {
                    entries.add(entry);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        entries.add(locationOf(url, resource));
        entries.add(codeLocation(EngineMain.class));
        return String.join(java.io.File.pathSeparator, entries);
    }

    /** The jar or classes directory that holds a resource. */
    private static String locationOf(URL url, String resource) {
        String text = url.toString();
        if (text.startsWith("jar:")) {
            text = text.substring("jar:".length(), text.indexOf("!/"));
        } else {
            text = text.substring(0, text.length() - resource.length());
        }
        try {
            return Path.of(new URL(text).toURI()).toString();
        } catch (IOException | URISyntaxException e) {
            throw new LocalStackException("cannot locate " + url, e);
        }
    }

    private static String codeLocation(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new LocalStackException("cannot locate " + type, e);
        }
    }
}
