package dev.openrag.ingest.stage.parse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.tika.config.TikaConfig;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.TikaException;
import org.apache.tika.exception.WriteLimitReachedException;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.mime.MediaType;
import org.apache.tika.parser.AutoDetectParser;
import org.apache.tika.parser.ParseContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.xml.sax.SAXException;

import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.Heading;
import dev.openrag.schemas.Page;

/**
 * Apache Tika behind one method: bytes or text in, plain text with Markdown-style headings, a
 * title and the media type out. Plain text and source code are decoded as strict UTF-8; every
 * other format goes through Tika's parsers. Anything unusable is a {@link ParseFailure} naming why.
 */
@ApplicationScoped
public class DocumentParser {

    /**
     * What the parse stage produced from one document; {@code properties} are the source fields the
     * format itself holds ({@code author}, {@code created}, {@code modified}: a PDF's or an Office
     * file's own), empty for plain text.
     */
    public record Parsed(String text, String title, String mediaType, List<Heading> headings, List<Page> pages,
                         Map<String, Object> properties) {

        Parsed(String text, String title, String mediaType, List<Heading> headings) {
            this(text, title, mediaType, headings, List.of(), Map.of());
        }
    }

    private static final Pattern MARKDOWN_HEADING = Pattern.compile("(?m)^(#{1,6})[ \\t]+(.+?)[ \\t#]*$");
    private static final Set<String> STRUCTURED_TEXT = Set.of("application/json", "application/yaml", "application/x-yaml",
            "text/yaml", "text/x-yaml", "application/vnd.oai.openapi", "application/vnd.oai.openapi+json");
    private static final Set<String> MARKDOWN_TYPES = Set.of("text/markdown", "text/x-markdown", "text/x-web-markdown");

    private final AutoDetectParser parser = new AutoDetectParser(TikaConfig.getDefaultConfig());
    private final long maxBytes;

    public DocumentParser(@ConfigProperty(name = "openrag.ingest.max-document-bytes", defaultValue = "10485760") long maxBytes) {
        this.maxBytes = maxBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }

    public Parsed parse(DocumentArrived document) {
        String fileName = fileName(document.source().uri());
        if (DocumentArrived.TEXT.equals(document.contentEncoding())) {
            String text = document.content();
            if (text.length() > maxBytes) {
                throw new ParseFailure("document too large: " + text.length() + " characters, the limit is " + maxBytes);
            }
            String mediaType = document.mediaType() == null ? "text/plain" : document.mediaType();
            if (mediaType.startsWith("text/html") || mediaType.startsWith("application/xhtml")) {
                return parseWithTika(text.getBytes(StandardCharsets.UTF_8), fileName, mediaType, document.title());
            }
            return plainText(text, mediaType, document.title(), fileName);
        }
        byte[] bytes = decodeBase64(document.content());
        if (bytes.length == 0) {
            throw new ParseFailure("empty document (0 bytes)");
        }
        if (bytes.length > maxBytes) {
            throw new ParseFailure("document too large: " + bytes.length + " bytes, the limit is " + maxBytes);
        }
        String mediaType = detect(bytes, fileName, document.mediaType());
        if (isPlainText(mediaType)) {
            return plainText(strictUtf8(bytes), mediaType, document.title(), fileName);
        }
        return parseWithTika(bytes, fileName, mediaType, document.title());
    }

    private Parsed plainText(String text, String mediaType, String title, String fileName) {
        if (text.isBlank()) {
            throw new ParseFailure("no text in the document (it is empty or only whitespace)");
        }
        boolean markdown = MARKDOWN_TYPES.contains(mediaType) || (fileName != null && fileName.toLowerCase(java.util.Locale.ROOT).matches(".*\\.(md|markdown)$"));
        List<Heading> headings = markdown ? headings(text) : List.of();
        String resolvedTitle = firstNonBlank(title, headings.isEmpty() ? null : headings.get(0).text(), fileName);
        return new Parsed(text, resolvedTitle, markdown ? "text/markdown" : mediaType, headings);
    }

    private Parsed parseWithTika(byte[] bytes, String fileName, String mediaType, String title) {
        Metadata metadata = new Metadata();
        if (fileName != null) {
            metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, fileName);
        }
        metadata.set(Metadata.CONTENT_TYPE, mediaType);
        MarkdownishContentHandler handler = new MarkdownishContentHandler((int) Math.min(Integer.MAX_VALUE - 16, maxBytes));
        try (TikaInputStream stream = TikaInputStream.get(new ByteArrayInputStream(bytes))) {
            parser.parse(stream, handler, metadata, new ParseContext());
        } catch (EncryptedDocumentException e) {
            throw new ParseFailure("cannot read " + mediaType + ": the document is encrypted or password-protected");
        } catch (WriteLimitReachedException e) {
            // keep what was extracted up to the limit
        } catch (TikaException | SAXException e) {
            throw new ParseFailure("cannot parse " + mediaType + " (corrupt or unsupported content): " + rootMessage(e), e);
        } catch (IOException e) {
            throw new ParseFailure("cannot read " + mediaType + ": " + rootMessage(e), e);
        } catch (RuntimeException e) {
            throw new ParseFailure("the " + mediaType + " parser failed: " + rootMessage(e), e);
        }
        MarkdownishContentHandler.Extracted extracted = handler.extracted();
        String text = extracted.text();
        if (text.isBlank()) {
            throw new ParseFailure("no text could be extracted from this " + mediaType + " document");
        }
        List<Heading> headings = headings(text);
        String resolvedTitle = firstNonBlank(title, metadata.get(TikaCoreProperties.TITLE),
                headings.isEmpty() ? null : headings.get(0).text(), fileName);
        return new Parsed(text, resolvedTitle, mediaType, headings, extracted.pages(), properties(metadata));
    }

    /** Tika's author, creation and modification times, where the format has them (a bad date is left out, not guessed). */
    private static Map<String, Object> properties(Metadata metadata) {
        Map<String, Object> properties = new LinkedHashMap<>();
        String author = firstNonBlank(metadata.get(TikaCoreProperties.CREATOR), metadata.get(TikaCoreProperties.MODIFIER));
        if (author != null) {
            properties.put("author", dev.openrag.ingest.source.SourceFields.clipped(author.strip(), dev.openrag.schemas.Metadata.MAX_VALUE_LENGTH));
        }
        putDate(properties, "created", metadata.get(TikaCoreProperties.CREATED));
        putDate(properties, "modified", metadata.get(TikaCoreProperties.MODIFIED));
        return properties;
    }

    private static void putDate(Map<String, Object> properties, String key, String text) {
        java.time.Instant date = text == null ? null : dev.openrag.schemas.Metadata.dateOrNull(text.strip());
        if (date != null) {
            properties.put(key, date.toString());
        }
    }

    /** Tika's detection from the bytes and the file name; unknown binary content is refused. */
    private String detect(byte[] bytes, String fileName, String declared) {
        Metadata metadata = new Metadata();
        if (fileName != null) {
            metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, fileName);
        }
        MediaType type;
        try (TikaInputStream stream = TikaInputStream.get(new ByteArrayInputStream(bytes))) {
            type = parser.getDetector().detect(stream, metadata);
        } catch (IOException e) {
            throw new ParseFailure("cannot detect the document type: " + e.getMessage(), e);
        }
        String detected = type.getBaseType().toString();
        if (detected.equals("application/octet-stream") && declared != null && !declared.startsWith("application/octet-stream")) {
            detected = declared;
        }
        boolean supported = isPlainText(detected) || parser.getSupportedTypes(new ParseContext()).contains(MediaType.parse(detected));
        if (detected.equals("application/octet-stream") || !supported) {
            throw new ParseFailure("unsupported document type " + detected
                    + (fileName == null ? "" : " (" + fileName + ")") + ": not a format OpenRAG can read");
        }
        return detected;
    }

    private static boolean isPlainText(String mediaType) {
        return mediaType.startsWith("text/") && !mediaType.startsWith("text/html") || STRUCTURED_TEXT.contains(mediaType);
    }

    /** JSON, YAML and plain text: where an OpenAPI spec may be (it then becomes an API graph). */
    static boolean isStructuredText(String mediaType) {
        return STRUCTURED_TEXT.contains(mediaType) || mediaType.equals("text/plain");
    }

    private static String strictUtf8(byte[] bytes) {
        int start = bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF ? 3 : 0;
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, start, bytes.length - start))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ParseFailure("the text is not valid UTF-8 (" + e.getMessage() + "); convert the file to UTF-8 and upload it again");
        }
    }

    private static byte[] decodeBase64(String content) {
        try {
            return Base64.getDecoder().decode(content);
        } catch (IllegalArgumentException e) {
            throw new ParseFailure("content is not valid base64: " + e.getMessage());
        }
    }

    static List<Heading> headings(String text) {
        List<Heading> headings = new ArrayList<>();
        Matcher matcher = MARKDOWN_HEADING.matcher(text);
        boolean inFence = false;
        int scanned = 0;
        while (matcher.find()) {
            inFence ^= countFences(text, scanned, matcher.start()) % 2 == 1;
            scanned = matcher.start();
            if (!inFence) {
                headings.add(new Heading(matcher.group(1).length(), matcher.group(2).strip(), matcher.start()));
            }
        }
        return headings;
    }

    private static int countFences(String text, int from, int to) {
        Matcher fence = Pattern.compile("(?m)^\\s*(```|~~~)").matcher(text).region(from, to);
        int count = 0;
        while (fence.find()) {
            count++;
        }
        return count;
    }

    static String fileName(String uri) {
        if (uri == null || uri.isBlank()) {
            return null;
        }
        String path = uri.replaceFirst("[?#].*$", "");
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.isBlank() ? null : name;
    }

    private static String firstNonBlank(String... values) {
        for (String value : values) {
            if (value != null && !value.isBlank()) {
                return value.strip();
            }
        }
        return null;
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
