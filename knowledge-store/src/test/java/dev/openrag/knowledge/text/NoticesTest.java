package dev.openrag.knowledge.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NoticesTest {

    @Test
    void licenceAndCopyrightTextIsANoticeADescriptionIsNot() {
        assertThat(Notices.isNotice("Licensed to the Apache Software Foundation (ASF) under one or more contributor")).isTrue();
        assertThat(Notices.isNotice("SPDX-License-Identifier: Apache-2.0")).isTrue();
        assertThat(Notices.isNotice("(C) 2020 Password4j")).isTrue();
        assertThat(Notices.isNotice("Permission is hereby granted, free of charge, to any person")).isTrue();
        assertThat(Notices.isNotice("Parses the licence file a user supplies and checks its signature.")).isFalse();
        assertThat(Notices.isNotice("A vector with its norm.")).isFalse();
    }

    @Test
    void aLeadingNoticeCommentIsRemovedInEveryCommentStyle() {
        assertThat(Notices.withoutLeadingNotice("/*\n * Copyright 2018 Google LLC.\n */\n\npackage a;\n")).isEqualTo("\n\npackage a;\n");
        assertThat(Notices.withoutLeadingNotice("// Copyright 2005, Google Inc.\n// All rights reserved.\n\n// Death tests.\n"))
                .isEqualTo("\n// Death tests.\n");
        assertThat(Notices.withoutLeadingNotice("# Licensed under the MIT licence\n# (the \"License\")\nimport os\n")).isEqualTo("import os\n");
    }

    @Test
    void aTextWithoutALeadingNoticeIsUnchanged() {
        String described = "//! Executor for differential fuzzing.\nuse core::fmt::Debug;\n";
        assertThat(Notices.withoutLeadingNotice(described)).isEqualTo(described);
        String noticeLater = "package a;\n/* Copyright 2018 Google LLC. */\n";
        assertThat(Notices.withoutLeadingNotice(noticeLater)).isEqualTo(noticeLater);
        assertThat(Notices.withoutLeadingNotice("")).isEmpty();
    }
}
