package io.seckill.support;

import java.nio.file.Path;
import org.h2.Driver;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/** The H2 file of a {@link ServiceProcess}, opened by the test once no instance holds it (or with AUTO_SERVER). */
public final class ServiceDatabase {

    private ServiceDatabase() {}

    /** The file the service uses by default: {@code ./data/db/seckill} under its working directory. */
    public static String defaultUrl(Path workDir) {
        return "jdbc:h2:file:" + workDir.toAbsolutePath().resolve("data/db/seckill") + ";WRITE_DELAY=0";
    }

    public static JdbcTemplate open(String url) {
        return new JdbcTemplate(new SimpleDriverDataSource(new Driver(), url, "sa", ""));
    }
}
