package dev.openrag.knowledge.text;

import java.util.regex.Pattern;

/**
 * Licence and copyright notices: the first block of most source files of a project, and the same
 * in each. Text that says what a file <em>is</em> (a context's synopsis, a summary's lead) skips
 * them, or every such file would be described by the same boilerplate.
 */
public final class Notices {

    private static final Pattern NOTICE = Pattern.compile("(?i)copyright|\\(c\\)\\s*\\d{4}|spdx-license|licensed (under|to)"
            + "|all rights reserved|permission is hereby granted|redistribution and use|free software foundation|license, version");
    /** A comment block at the very start of a text: C-style, or consecutive line comments. */
    private static final Pattern LEADING_COMMENT = Pattern.compile("\\A\\s*(/\\*.*?\\*/|((//|#)[^\\n]*(\\n|\\z))+)", Pattern.DOTALL);

    private Notices() {
    }

    /** Whether the text reads as a licence or copyright notice. */
    public static boolean isNotice(CharSequence text) {
        return NOTICE.matcher(text).find();
    }

    /** The text without a licence or copyright comment at its start (unchanged if it has none). */
    public static String withoutLeadingNotice(String text) {
        var leading = LEADING_COMMENT.matcher(text);
        return leading.find() && isNotice(leading.group()) ? text.substring(leading.end()) : text;
    }
}
