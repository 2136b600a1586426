package dev.openrag.ingest.source.crawl;

import java.util.List;

/** A page as the browser showed it: HTTP status, content type, title, main text as Markdown, absolute links. */
record RenderedPage(int status, String contentType, String title, String markdown, List<String> links) {

    boolean isHtml() {
        return contentType == null || contentType.contains("html");
    }
}
