package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.knowledge.text.SourceCode;
import dev.openrag.schemas.Chunk;

class StructuralContextualizerTest {

    private static final String RUST = """
            //! Executor for differential fuzzing.
            //! It wraps two executors.
            use core::fmt::Debug;

            /// Wraps a primary executor and a secondary one.
            pub struct DiffExecutor<A, B> {
                primary: A,
                secondary: B,
            }

            impl<A, B> DiffExecutor<A, B> {
                /// Create a new `DiffExecutor`.
                pub fn new(primary: A, secondary: B) -> Self {
                    Self { primary, secondary }
                }

                pub fn primary(&mut self) -> &mut A {
                    &mut self.primary
                }
            }
            """;

    @Test
    void codeChunksAreSituatedByFileSynopsisEnclosingDeclarationsAndDefinedNames() {
        int start = RUST.indexOf("        Self { primary");
        int secondStart = RUST.indexOf("    pub fn primary");
        List<Chunk> chunks = List.of(
                new Chunk("c/d#0", 0, RUST.substring(start, secondStart), List.of(), start, secondStart, null, null),
                new Chunk("c/d#1", 1, RUST.substring(secondStart), List.of(), secondStart, RUST.length(), null, null));

        List<String> contexts = new StructuralContextualizer().contexts(null, "src/executors/differential.rs", RUST, chunks);

        assertThat(contexts.get(0))
                .contains("Source file: src/executors/differential.rs (rust)")
                .contains("About: Executor for differential fuzzing. It wraps two executors.")
                .contains("Inside: impl DiffExecutor > fn new")
                .contains("Declares: struct DiffExecutor, impl DiffExecutor");
        assertThat(contexts.get(1)).contains("Inside: impl DiffExecutor").contains("Defines: fn primary").contains("Part 2 of 2.");
    }

    @Test
    void proseGetsTitleSectionAndFirstParagraph() {
        String text = "Kafka keeps order per key.\n\nMore text here.";
        List<String> contexts = new StructuralContextualizer().contexts("Kafka notes", "file:///notes.txt", text,
                List.of(new Chunk("c/d#0", 0, "More text here.", List.of("Ordering"), 28, 43, null, null)));

        assertThat(contexts.get(0)).startsWith("Document: Kafka notes").contains("About: Kafka keeps order per key.")
                .contains("Section: Ordering").doesNotContain("Inside:");
    }

    private static final String APACHE_LICENCE = """
            /*
             * Copyright 2017 Google LLC.
             *
             * Licensed under the Apache License, Version 2.0 (the "License"); you may not
             * use this file except in compliance with the License.
             */
            """;

    @Test
    void aLicenceHeaderIsNotTheSynopsisTheFilesOwnDescriptionIs() {
        String java = APACHE_LICENCE + """

                package com.example.registry;

                import java.text.MessageFormat;

                /** Thrown because registry authentication failed. */
                public class RegistryAuthenticationFailedException extends RuntimeException {
                  private final String serverUrl;
                }
                """;
        int start = java.indexOf("  private final");
        List<String> contexts = new StructuralContextualizer().contexts(null, "Failed.java", java,
                List.of(new Chunk("c/d#1", 1, java.substring(start), List.of(), start, java.length(), null, null)));

        assertThat(contexts.get(0)).contains("About: Thrown because registry authentication failed.")
                .doesNotContainIgnoringCase("licen").doesNotContainIgnoringCase("copyright");
    }

    @Test
    void aSynopsisIsLookedForPastIncludesPragmasAndNamespacesNotPastTheFirstDeclaration() {
        String cpp = """
                // Copyright 2005, Google Inc.
                // All rights reserved.
                //
                // Redistribution and use in source and binary forms, with or without
                // modification, are permitted.

                //
                // This header file defines the public API for death tests.

                #ifndef GTEST_DEATH_TEST_H_
                #include "gtest/internal/gtest-death-test-internal.h"
                """;
        assertThat(synopsis(cpp, "death-test.h")).isEqualTo("This header file defines the public API for death tests.");

        String header = """
                #pragma once

                #include "column.h"

                namespace clickhouse {

                /**
                 * Represents column of Tuple([T]).
                 */
                class ColumnTuple : public Column {
                """;
        assertThat(synopsis(header, "tuple.h")).isEqualTo("Represents column of Tuple([T]).");

        String go = """
                package main

                import (
                	"fmt"
                	"os"
                )

                // Main prints a greeting.
                func main() {
                """;
        assertThat(synopsis(go, "main.go")).isEqualTo("Main prints a greeting.");

        String undocumented = APACHE_LICENCE + """
                package com.example;

                public enum ConsoleOutput {
                  auto,
                  // A comment inside the code is not the file's description.
                  plain
                }
                """;
        assertThat(synopsis(undocumented, "ConsoleOutput.java")).isEmpty();
        assertThat(synopsis(APACHE_LICENCE, "Empty.java")).isEmpty();
    }

    @Test
    void proseOpeningWithACopyrightLineIsDescribedByItsNextParagraph() {
        assertThat(synopsis("Copyright (c) 2024 Example Corp. All rights reserved.\n\nThe billing service charges cards.", "notes.txt"))
                .isEqualTo("The billing service charges cards.");
    }

    /** The synopsis as the context's "About:" line shows it ("" when there is none). */
    private static String synopsis(String text, String uri) {
        String context = new StructuralContextualizer().contexts(null, uri, text,
                List.of(new Chunk("c/d#0", 0, text, List.of(), 0, text.length(), null, null))).get(0);
        return context.lines().filter(line -> line.startsWith("About: ")).map(line -> line.substring(7)).findFirst().orElse("");
    }

    @Test
    void cppMethodsDefinedOutsideTheirClassAreNamedWithTheirClassAndEncloseTheirBody() {
        String cpp = """
                #include <log4cxx/basicconfigurator.h>

                void BasicConfigurator::configure(const LayoutPtr& layoutArg)
                {
                	auto layout = layoutArg;
                	if (!layout)
                	{
                		layout = defaultLayout();
                	}
                }

                std::string Column::Name() const {
                    return name_;
                }

                class AVLogGetFlags : public Base {
                public:
                  AVLogGetFlags(std::shared_ptr<Env> HostEnv)
                      : Base(HostEnv) {}
                };
                """;
        assertThat(SourceCode.declarations(cpp, "cpp")).extracting(SourceCode.Declaration::label)
                .containsExactly("method BasicConfigurator::configure", "method Column::Name", "class AVLogGetFlags");

        int body = cpp.indexOf("\t\tlayout = defaultLayout");
        int second = cpp.indexOf("std::string");
        List<String> contexts = new StructuralContextualizer().contexts(null, "basicconfigurator.cpp", cpp, List.of(
                new Chunk("c/d#0", 0, cpp.substring(0, body), List.of(), 0, body, null, null),
                new Chunk("c/d#1", 1, cpp.substring(body, second), List.of(), body, second, null, null)));
        assertThat(contexts.get(0)).contains("Defines: method BasicConfigurator::configure");
        assertThat(contexts.get(1)).contains("Inside: method BasicConfigurator::configure");
    }

    @Test
    void languageIsRecognisedFromExtensionOrContent() {
        assertThat(SourceCode.language("a/b/x.py", null, "")).isEqualTo("python");
        assertThat(SourceCode.language(null, "text/plain", RUST)).isEqualTo("rust");
        assertThat(SourceCode.language(null, "text/plain", "Just an ordinary sentence about the weather.")).isNull();
        assertThat(SourceCode.language("notes.md", "text/markdown", "# Title")).isNull();
    }
}
