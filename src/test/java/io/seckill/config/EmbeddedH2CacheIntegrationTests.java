package io.seckill.config;

import static io.seckill.support.H2OrderFile.create;
import static io.seckill.support.H2OrderFile.info;
import static io.seckill.support.H2OrderFile.writeOrders;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The embedded H2 file as application.yaml opens it, on a directory of the test's own: H2 puts every page it writes
 * into its page cache, so the writer's small commits filled H2's default 16 MB with superseded copies of the same few
 * pages, which lived long enough to be promoted and cost G1 its mixed collections (docs/performance.md, "POST p99 at
 * half load"). The shipped URL keeps that cache to 2 MB.
 */
class EmbeddedH2CacheIntegrationTests {

    private static final String SHIPPED_FILE = "./data/db/seckill";

    @TempDir
    Path dir;

    @Test
    void theWritersCommitsKeepAtMostTwoMegabytesOfPagesInTheCache() throws Exception {
        String url = shippedUrl();
        assertThat(url).startsWith("jdbc:h2:file:" + SHIPPED_FILE);
        DataSource service = new DriverManagerDataSource(
                url.replace(SHIPPED_FILE, dir.resolve("service").toString()), "sa", "");
        DataSource h2Default = new DriverManagerDataSource(
                "jdbc:h2:file:" + dir.resolve("default") + ";WRITE_DELAY=0", "sa", "");
        // Open throughout, as the service's pool keeps it: H2 drops its cache with the last connection.
        try (Connection serviceOpen = service.getConnection(); Connection defaultOpen = h2Default.getConnection()) {
            writeOrders(create(service), 0, 2_000);
            writeOrders(create(h2Default), 0, 2_000);

            assertThat(info(service, "CACHE_MAX_SIZE")).isEqualTo(2);
            assertThat(info(service, "CACHE_SIZE")).isLessThanOrEqualTo(2);
            // The same commits on H2's default: the cache keeps what they wrote, far beyond what is read again.
            assertThat(info(h2Default, "CACHE_SIZE")).isGreaterThan(4);
        }
    }

    private static String shippedUrl() throws IOException {
        return new YamlPropertySourceLoader().load("application", new ClassPathResource("application.yaml")).stream()
                .map(source -> source.getProperty("spring.datasource.url"))
                .filter(value -> value != null).map(Object::toString).findFirst().orElseThrow();
    }
}
